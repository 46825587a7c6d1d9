import { ApiRouter, HttpProblem } from '@workspace/kit';
import { z } from 'zod';
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
export function portalInviteRoute(
  context: BffContext,
  options: { cisUrl: string | undefined; timeoutMs: number },
): ApiRouter {
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
    },
    handler: async ({ body, req, res }) => {
      const session = await requireStaff(context, req, res);
      requireSameTenant(session, body.tenantId);
      if (!options.cisUrl) throw new HttpProblem(503, 'unavailable', 'The cis service is not available.');
      let upstream: Response;
      try {
        upstream = await fetch(`${options.cisUrl}/v1/subcontractors/invite`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${session.accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({ subcontractorId: body.subcontractorId }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        context.logger.warn({ err: error }, 'cis unreachable for a portal invitation');
        throw new HttpProblem(503, 'unavailable', 'The cis service is temporarily unavailable.');
      }
      const answer = (await upstream.json().catch(() => ({}))) as Record<string, unknown>;
      if (upstream.ok) return inviteAnswer.parse(answer);
      const detail = typeof answer.detail === 'string' ? answer.detail : 'Failed to send invitation';
      res
        .status(upstream.status)
        .type('application/problem+json')
        .json({ ...answer, success: false, error: detail });
      return undefined;
    },
  });
}
