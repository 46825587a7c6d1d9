import { AccessRestricted } from '../../../ui/AccessRestricted';
import { useDrive } from '../context';
import { permissionAction } from './permissions';

/** The Access Restricted page for a denied drive action: who, where, and the permission it needs. */
export function DriveRestricted({ scope, testId }: { scope: string; testId?: string }) {
  const { session } = useDrive();
  return (
    <div data-testid={testId ?? 'drive-restricted'}>
      <AccessRestricted
        action={permissionAction(scope)}
        permission={scope}
        user={session.user.email}
        organisation={session.tenant.name}
      />
    </div>
  );
}
