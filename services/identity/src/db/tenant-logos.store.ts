import type { Knex } from '@workspace/kit';

/** The tenant's logo: a text logo or an image (PNG, JPEG or GIF by content); undefined = none. */
export type TenantLogo =
  | { kind: 'text'; text: string; updatedAt: Date }
  | { kind: 'image'; contentType: string; image: Buffer; size: number; sha256: string; updatedAt: Date };

export type NewTenantLogo =
  { kind: 'text'; text: string } | { kind: 'image'; contentType: string; image: Buffer; sha256: string };

interface LogoRow {
  kind: 'text' | 'image';
  text: string | null;
  content_type: string | null;
  image: Buffer | null;
  byte_size: number | null;
  sha256: string | null;
  updated_at: Date;
}

/** The tenant's logo (table `tenant_logos`, one row per tenant). */
export class TenantLogoStore {
  constructor(private readonly trx: Knex.Transaction) {}

  /** The tenant's logo; `withImage: false` leaves the bytes in the database (a metadata read). */
  async logo(tenantId: string, options: { withImage: boolean }): Promise<TenantLogo | undefined> {
    const columns = ['kind', 'text', 'content_type', 'byte_size', 'sha256', 'updated_at'];
    const row: LogoRow | undefined = await this.trx('tenant_logos')
      .where({ tenant_id: tenantId })
      .first(options.withImage ? [...columns, 'image'] : columns);
    if (!row) return undefined;
    if (row.kind === 'text') return { kind: 'text', text: row.text ?? '', updatedAt: row.updated_at };
    return {
      kind: 'image',
      contentType: row.content_type ?? 'application/octet-stream',
      image: row.image ?? Buffer.alloc(0),
      size: row.byte_size ?? 0,
      sha256: row.sha256 ?? '',
      updatedAt: row.updated_at,
    };
  }

  async saveLogo(tenantId: string, logo: NewTenantLogo, updatedBy: string): Promise<void> {
    const row =
      logo.kind === 'text'
        ? { kind: 'text', text: logo.text, content_type: null, image: null, byte_size: null, sha256: null }
        : {
            kind: 'image',
            text: null,
            content_type: logo.contentType,
            image: logo.image,
            byte_size: logo.image.length,
            sha256: logo.sha256,
          };
    await this.trx('tenant_logos')
      .insert({ tenant_id: tenantId, ...row, updated_by: updatedBy, updated_at: this.trx.fn.now() })
      .onConflict('tenant_id')
      .merge();
  }

  /** Removes the logo; true when there was one. */
  async deleteLogo(tenantId: string): Promise<boolean> {
    return (await this.trx('tenant_logos').where({ tenant_id: tenantId }).delete()) > 0;
  }
}
