import { Alert } from 'antd';
import { AccessRestricted } from '../../../ui/AccessRestricted';
import { useCis } from '../context';
import { errorMessage, errorStatus } from '../problem';

/** The permission a 403 names, read from its detail ('... cis.inv.write ...'). */
function permissionOf(detail: string): string {
  return /\bcis\.[a-z.]+[a-z]/.exec(detail)?.[0] ?? 'cis.read';
}

/**
 * A failed load: the Access Restricted page on 403, otherwise the screen's error text
 * ('Error loading invoices: {message}' and the like).
 */
export function QueryError({ error, prefix, action }: { error: unknown; prefix: string; action: string }) {
  const { session } = useCis();
  const message = errorMessage(error);
  if (errorStatus(error) === 403)
    return (
      <AccessRestricted
        action={action}
        permission={permissionOf(message)}
        user={session.user.email}
        organisation={session.tenant.name}
      />
    );
  return <Alert type="error" showIcon title={`${prefix}${message}`} data-testid="load-error" />;
}
