import { ApiRouter } from '@workspace/kit';
import type { CisDeps } from '../cis-deps.js';
import { sendSignInLink } from '../commands/sign-in-links.js';
import { signInLinkInput, signInLinkResponse } from './sign-in-links.schemas.js';

/** The sign-in links subcontractors ask for, sent on identity's request (ADR 0055). */
export function signInLinkRoutes(deps: CisDeps): ApiRouter {
  return new ApiRouter().route({
    method: 'post',
    path: '/portal-sign-in-links',
    summary:
      'E-mail a fresh portal sign-in link to the subcontractor with this address, if one may use the portal (identity’s request queue; the answer is for identity only)',
    scopes: ['cis.portal.invite'],
    request: { body: signInLinkInput },
    responses: { 200: { description: 'Whether a link was e-mailed', schema: signInLinkResponse } },
    handler: ({ ctx, body, req }) =>
      sendSignInLink(deps, { tenantId: ctx.tenantId, authorization: req.headers.authorization ?? '' }, body),
  });
}
