import { badgeColour, type BadgeColour } from '../domain';

const antdColours: Record<BadgeColour, string> = {
  green: 'green',
  blue: 'blue',
  grey: 'default',
  purple: 'purple',
  red: 'red',
};

/** The spec's badge colours (paid green, approved blue, draft grey, submitted purple, other red) as antd Tag colours. */
export function tagColour(status: string | null | undefined): string {
  return antdColours[badgeColour(status)];
}
