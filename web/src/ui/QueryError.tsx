import { Alert } from 'antd';
import { AccessRestricted } from './AccessRestricted';
import { errorMessage, errorStatus } from './problem';

/** Who is refused, for the Access Restricted page. */
export interface QueryErrorSession {
  user: { email: string };
  tenant: { name: string };
}

/**
 * A failed load: the Access Restricted page on 403 (the permission its detail names, e.g. '... cis.inv.write ...',
 * else `{module}.read`), otherwise the screen's error text ('Error loading invoices: {message}' and the like).
 */
export function QueryError({
  error,
  prefix,
  action,
  session,
  module,
}: {
  error: unknown;
  prefix: string;
  action: string;
  session: QueryErrorSession;
  module: string;
}) {
  const message = errorMessage(error);
  if (errorStatus(error) === 403)
    return (
      <AccessRestricted
        action={action}
        permission={new RegExp(`\\b${module}\\.[a-z.]+[a-z]`).exec(message)?.[0] ?? `${module}.read`}
        user={session.user.email}
        organisation={session.tenant.name}
      />
    );
  return <Alert type="error" showIcon title={`${prefix}${message}`} data-testid="load-error" />;
}
