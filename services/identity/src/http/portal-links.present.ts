import type { z } from 'zod';
import type { CreatedPortalLink } from '../commands/portal-links.js';
import type { portalLinkView } from './portal-links.schemas.js';

export const presentPortalLink = (link: CreatedPortalLink): z.input<typeof portalLinkView> => ({
  magicLink: link.magicLink,
  expiresAt: link.expiresAt.toISOString(),
  expiresIn: '15 minutes',
  tenantName: link.tenantName,
});
