import { HttpProblem, type Logger } from '@workspace/kit';
import { callService } from './service-call.js';

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

/** Identity, called with the caller's own token (identity checks the scopes and the tenant). */
export class IdentityClient {
  constructor(
    private readonly baseUrl: string,
    private readonly logger: Logger,
  ) {}

  /** The tenant's role bundles with their CIS scopes. */
  async cisRoleBundles(authorization: string): Promise<RoleBundle[]> {
    const answer = await this.call<{ items: RoleBundle[] }>(
      authorization,
      'GET',
      '/v1/module-role-bundles/cis',
    );
    return answer?.items ?? [];
  }

  /** Sets the CIS scopes of a role bundle (stored in identity). */
  async setCisRoleBundle(authorization: string, bundleId: string, scopes: string[]): Promise<void> {
    await this.call(authorization, 'PUT', `/v1/module-role-bundles/cis/${encodeURIComponent(bundleId)}`, {
      scopes,
    });
  }

  /** A portal magic link for a subcontractor (identity checks the caller's invite scope). */
  async createPortalLink(authorization: string, subcontractorId: string): Promise<PortalLink> {
    const link = await callService<PortalLink>({
      baseUrl: this.baseUrl,
      method: 'POST',
      path: '/v1/portal/links',
      authorization,
      body: { subcontractorId },
      logger: this.logger,
      unreachable: {
        log: 'identity is unreachable for a portal link',
        problem: () => new HttpProblem(503, 'unavailable', 'Failed to send invitation'),
      },
      refused: (status, problem) =>
        new HttpProblem(
          status === 403 ? 403 : 502,
          status === 403 ? 'forbidden' : 'upstream_failed',
          problem.detail ?? 'Failed to send invitation',
        ),
    });
    return link as PortalLink;
  }

  private call<T>(authorization: string, method: string, path: string, body?: unknown) {
    return callService<T>({
      baseUrl: this.baseUrl,
      method,
      path,
      authorization,
      body,
      logger: this.logger,
      unreachable: {
        log: 'identity is unreachable',
        problem: () =>
          new HttpProblem(503, 'unavailable', 'The identity service is temporarily unavailable.'),
      },
      refused: (status, problem) =>
        new HttpProblem(
          status >= 500 ? 502 : status,
          problem.code ?? 'upstream_failed',
          problem.detail ?? 'The identity service refused the request.',
        ),
    });
  }
}
