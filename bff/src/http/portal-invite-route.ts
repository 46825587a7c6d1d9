import { ApiRouter, HttpProblem, UpstreamProblem, type ServiceClient } from '@workspace/kit';
import { z } from 'zod';
import { enforceLimit } from '../rate-limit.js';
import { requireSameTenant, requireStaff, type BffContext } from './context.js';

const inviteAnswer = z.object({
  success: z.literal(true),
  subcontractorId: z.string(),
  magicLink: z.string(),
  tenantName: z.string(),
  expiresIn: z.string(),
  emailSent: z.boolean(),
  warning: z.string().optional(),
});

/**
 * The spec's invite call, `POST /api/portal/invite` {subcontractorId, tenantId} (cis.md "Calls"): the tenant must be
 * the session's (else 404, like every tenant named by a browser), then cis's `POST /v1/subcontractors/invite` does the
 * work with the user's token (scope cis.portal.invite; the link from identity, the email through notification).
 * The answer is the spec's {success, magicLink, tenantName} plus what cis adds; a refusal is problem+json with the
 * spec's `success: false` and `error` (the detail) beside the problem members.
 */
export function portalInviteRoute(context: BffContext, cis: ServiceClient | undefined): ApiRouter {
  return new ApiRouter().route({
    method: 'post',
    path: '/portal/invite',
    summary:
      "Invite a subcontractor of the session's tenant to the portal (tenantId must be the session's, else 404); cis emails the magic link",
    public: true,
    request: {
      body: z.object({
        subcontractorId: z.uuid('Subcontractor id is not valid'),
        tenantId: z.string().min(1).max(63),
      }),
    },
    responses: {
      200: {
        description: 'The link (shown once), the tenant name and whether the email went',
        schema: inviteAnswer,
      },
      429: { description: 'Too many invitations from this user (Retry-After)' },
    },
    handler: async ({ body, req, res }) => {
      const session = await requireStaff(context, req, res);
      requireSameTenant(session, body.tenantId);
      // Each invitation sends an e-mail: a user's invitations are limited.
      await enforceLimit(context.limits.invite, [`user:${session.tenantId}:${session.uid}`], res);
      if (!cis) throw new HttpProblem(503, 'unavailable', 'The cis service is not available.');
      try {
        return await cis.post({
          path: '/subcontractors/invite',
          caller: { accessToken: session.accessToken },
          body: { subcontractorId: body.subcontractorId },
          schema: inviteAnswer,
        });
      } catch (error) {
        // cis's refusal reaches the browser with its status and members, plus the spec's success and error.
        const refusal = error instanceof UpstreamProblem ? error.upstream : undefined;
        if (!refusal?.status || refusal.status < 400) throw error;
        const answer = isRecord(refusal.body) ? refusal.body : {};
        res
          .status(refusal.status)
          .type('application/problem+json')
          .json({ ...answer, success: false, error: refusal.detail ?? 'Failed to send invitation' });
      }
      return undefined;
    },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
