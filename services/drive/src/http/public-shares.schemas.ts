import { z } from 'zod';
import { SHARE_VISIBILITIES } from '../domain/index.js';

export const publicShareParams = z.object({ shareId: z.string().min(1).max(100) });
export const publicFileParams = publicShareParams.extend({ fileId: z.string().min(1).max(100) });

/** The link's tenant (the public page's ?tenantId=), and a viewer token when links and images cannot send headers. */
export const publicShareQuery = z.object({
  tenantId: z.string().min(1).max(100),
  token: z.string().max(2_000).optional(),
});

export const unlockBody = z.object({ passcode: z.string().min(1).max(128) });

export const viewerTokenResponse = z.object({ viewerToken: z.string(), expiresAt: z.string() });

export const publicShareView = z.object({
  id: z.string(),
  name: z.string(),
  visibility: z.enum(SHARE_VISIBILITIES),
  policy: z.object({ allowDownload: z.boolean(), watermark: z.boolean(), expiresAt: z.string().nullable() }),
  files: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      size: z.number(),
      mimeType: z.string(),
      typeClass: z.string(),
    }),
  ),
  viewer: z.object({ signedIn: z.boolean(), name: z.string() }),
});
