import { QueryError } from '../../../ui/QueryError';
import { useCis } from '../context';

/** A failed CIS load, for the signed-in user (see QueryError). */
export function CisQueryError({ error, prefix, action }: { error: unknown; prefix: string; action: string }) {
  const { session } = useCis();
  return <QueryError session={session} module="cis" error={error} prefix={prefix} action={action} />;
}
