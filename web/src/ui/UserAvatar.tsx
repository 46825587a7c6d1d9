import { Avatar, Badge } from 'antd';

import { avatarPixels, statusColours, type AvatarSize, type UserStatus } from './avatar';

export { avatarPixels, statusColours, type AvatarSize, type UserStatus };

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (
    (parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')
  ).toUpperCase();
}

export function UserAvatar({
  name,
  photoUrl,
  size = 'md',
  status,
}: {
  name: string;
  photoUrl?: string | null;
  size?: AvatarSize;
  status?: UserStatus;
}) {
  const avatar = (
    <Avatar size={avatarPixels[size]} src={photoUrl ?? undefined} alt={name}>
      {initials(name)}
    </Avatar>
  );
  if (!status) return avatar;
  return (
    <Badge
      dot
      color={statusColours[status]}
      offset={[-avatarPixels[size] / 8, avatarPixels[size] - avatarPixels[size] / 6]}
      title={status}
    >
      {avatar}
    </Badge>
  );
}
