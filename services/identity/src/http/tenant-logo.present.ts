import type { z } from 'zod';
import type { TenantLogo } from '../db/tenant-logos.store.js';
import type { logoImageView, logoView } from './tenant-logo.schemas.js';

/** A logo's version tag: the first 32 hex digits of its SHA-256. */
const etagOf = (sha256: string) => sha256.slice(0, 32);

export const presentLogo = (logo: TenantLogo | undefined): z.input<typeof logoView> => {
  if (!logo) {
    return { kind: 'none', text: null, contentType: null, size: null, etag: null, updatedAt: null };
  }
  if (logo.kind === 'text') {
    return {
      kind: 'text',
      text: logo.text,
      contentType: null,
      size: null,
      etag: null,
      updatedAt: logo.updatedAt.toISOString(),
    };
  }
  return {
    kind: 'image',
    text: null,
    contentType: logo.contentType,
    size: logo.size,
    etag: etagOf(logo.sha256),
    updatedAt: logo.updatedAt.toISOString(),
  };
};

export const presentLogoImage = (
  logo: Extract<TenantLogo, { kind: 'image' }>,
): z.input<typeof logoImageView> => ({
  contentType: logo.contentType,
  etag: etagOf(logo.sha256),
  data: logo.image.toString('base64'),
});
