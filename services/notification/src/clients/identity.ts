import { ServiceClient, type Logger } from '@workspace/kit';
import { z } from 'zod';

const holders = z.object({ items: z.array(z.object({ uid: z.string() })) });

/** identity, as notification asks it (internal token): who in a tenant holds a scope. */
export class IdentityClient {
  private readonly client: ServiceClient;

  constructor(baseUrl: string, internalToken: string, logger: Logger) {
    this.client = new ServiceClient({
      service: 'identity',
      baseUrl,
      internalToken,
      timeoutMs: 10_000,
      logger,
      failure: { detail: 'The identity service refused the request.' },
    });
  }

  /** The ids of the tenant's users holding the scope. Throws when identity cannot answer (the event is retried). */
  async scopeHolders(tenantId: string, scope: string): Promise<string[]> {
    const answer = await this.client.get({
      path: `/v1/internal/tenants/${encodeURIComponent(tenantId)}/scope-holders`,
      query: { scope },
      caller: 'internal',
      schema: holders,
    });
    return answer.items.map((item) => item.uid);
  }
}
