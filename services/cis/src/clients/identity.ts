import { HttpProblem, ServiceClient, UpstreamProblem, type Logger } from '@workspace/kit';

export interface RoleBundle {
  id: string;
  name: string;
  scopes: string[];
}

export interface PortalLink {
  magicLink: string;
  tenantName: string;
  expiresAt: string;
}

const INVITATION_FAILED = 'Failed to send invitation';

/** Identity, called with the caller's own token (identity checks the scopes and the tenant). */
export class IdentityClient {
  private readonly client: ServiceClient;

  constructor(baseUrl: string, logger: Logger) {
    this.client = new ServiceClient({
      service: 'identity',
      baseUrl,
      timeoutMs: 10_000,
      logger,
      failure: { detail: 'The identity service refused the request.' },
    });
  }

  /** The tenant's role bundles with their CIS scopes. */
  async cisRoleBundles(authorization: string): Promise<RoleBundle[]> {
    const answer = (await this.client.get({
      path: '/v1/module-role-bundles/cis',
      caller: { authorization },
    })) as { items?: RoleBundle[] } | undefined;
    return answer?.items ?? [];
  }

  /**
   * The tenant's users' names by id (GET /v1/users, which needs users.view): the caller's own token, so identity
   * decides what they may see. Answers an empty map when identity refuses or is unavailable: names are a nicety.
   */
  /** The names of these colleagues (identity's GET /v1/users/names, with the reader's token); none on failure. */
  async userNames(authorization: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    try {
      const answer = (await this.client.get({
        path: `/v1/users/names?ids=${encodeURIComponent(ids.slice(0, 100).join(','))}`,
        caller: { authorization },
      })) as { items?: { uid: string; displayName: string }[] } | undefined;
      return new Map((answer?.items ?? []).map((user) => [user.uid, user.displayName]));
    } catch {
      return new Map();
    }
  }

  /** Sets the CIS scopes of a role bundle (stored in identity). */
  async setCisRoleBundle(authorization: string, bundleId: string, scopes: string[]): Promise<void> {
    await this.client.put({
      path: `/v1/module-role-bundles/cis/${encodeURIComponent(bundleId)}`,
      caller: { authorization },
      body: { scopes },
    });
  }

  /**
   * A portal magic link for a subcontractor (identity checks the caller's invite scope). Identity's refusal is
   * 'Failed to send invitation' unless it says why: a 403 stays a 403, anything else is a 502.
   */
  async createPortalLink(authorization: string, subcontractorId: string): Promise<PortalLink> {
    try {
      return (await this.client.post({
        path: '/v1/portal/links',
        caller: { authorization },
        body: { subcontractorId },
        unavailable: INVITATION_FAILED,
      })) as PortalLink;
    } catch (error) {
      const status = error instanceof UpstreamProblem ? error.upstream.status : undefined;
      if (error instanceof UpstreamProblem && status !== undefined)
        throw new HttpProblem(
          status === 403 ? 403 : 502,
          status === 403 ? 'forbidden' : 'upstream_failed',
          error.upstream.detail ?? INVITATION_FAILED,
        );
      throw error;
    }
  }
}
