import { londonDate } from '@workspace/rules';
import { GIB } from '../src/domain/index.js';
import { DRIVE_ADMIN_SCOPES, startDriveHarness, type DriveHarness } from './support.js';
import {
  adminQuery,
  outboxRows,
  putParts,
  seedPlace,
  sha256,
  useStorage,
  type Grant,
} from './uploads-support.js';

describe('storage: tier, capacity, use and usage stats', () => {
  let h: DriveHarness;
  let admin: string;

  beforeAll(async () => {
    h = await startDriveHarness();
    admin = await h.signInAs('admin@demo.test');
  });
  afterAll(async () => {
    await h.stop();
  });

  it('summarises the tenant’s storage: tier and cap from identity, used, remaining GB, features, counters, daily and monthly use', async () => {
    const empty = await h.call(admin, 'GET', '/storage');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      tenantId: 'demo',
      tier: 'professional',
      tierKnown: true,
      limit: 200 * GIB,
      cap: 200 * GIB,
      used: 0,
      fileCount: 0,
      remainingGB: 200,
      features: { versioning: true, advancedSharing: true, analytics: true, customRetention: false },
      byType: { pdf: 0, images: 0, documents: 0, other: 0 },
    });

    const place = await seedPlace(h);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
    const granted = await h.call(admin, 'POST', '/uploads', {
      ...place,
      name: 'Statement.pdf',
      size: pdf.length,
      mimeType: 'application/pdf',
    });
    const g = granted.body as unknown as Grant;
    await putParts(g, pdf);
    expect(
      (await h.call(admin, 'POST', `/uploads/${g.uploadId}/complete`, { checksum: sha256(pdf) })).status,
    ).toBe(200);

    const after = await h.call(admin, 'GET', '/storage?tenantId=demo');
    const today = londonDate(h.clock.now());
    expect(after.body).toMatchObject({
      used: pdf.length,
      fileCount: 1,
      byType: { pdf: pdf.length },
      dailyUsage: [{ day: today, bytesAdded: pdf.length, filesAdded: 1, bytesRemoved: 0, filesRemoved: 0 }],
      monthlyUsage: [{ month: today.slice(0, 7), bytesAdded: pdf.length, filesAdded: 1 }],
    });
    expect(after.body.lastUpdated).toEqual(expect.any(String));
  });

  it('gives the toolbar’s remaining GB as (cap − used) in GiB floored, never below 0', async () => {
    await useStorage(h, Math.round(150.7 * GIB));
    try {
      expect((await h.call(admin, 'GET', '/storage')).body.remainingGB).toBe(49);
      await useStorage(h, 60 * GIB);
      expect((await h.call(admin, 'GET', '/storage')).body).toMatchObject({
        remainingGB: 0,
        remainingBytes: 0,
      });
    } finally {
      await useStorage(h, -Math.round(210.7 * GIB));
    }
  });

  it('a tenant given no tier is on the free tier (identity’s default): tier free, a 5 GiB cap', async () => {
    await adminQuery(h, "UPDATE identity.tenants SET storage_tier = DEFAULT WHERE tenant_id = 'demo'");
    h.definition.deps().identity.forget('demo');
    try {
      const summary = await h.call(admin, 'GET', '/storage');
      expect(summary.body).toMatchObject({ tier: 'free', tierKnown: true, limit: 5 * GIB, cap: 5 * GIB });
    } finally {
      await adminQuery(
        h,
        "UPDATE identity.tenants SET storage_tier = 'professional' WHERE tenant_id = 'demo'",
      );
      h.definition.deps().identity.forget('demo');
    }
  });

  it('falls back to the free tier’s 5 GB when identity cannot say the tier', async () => {
    h.definition.deps().identity.forget('demo');
    const unknownToIdentity = await h.token(DRIVE_ADMIN_SCOPES);
    const answer = await h.call(unknownToIdentity, 'GET', '/storage');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ tier: 'free', tierKnown: false, cap: 5 * GIB });
    h.definition.deps().identity.forget('demo');
  });

  it("needs a tenant: an empty tenantId is 'Tenant ID is required', another tenant's is 404", async () => {
    const empty = await h.call(admin, 'GET', '/storage?tenantId=');
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'TENANT_ID_REQUIRED', detail: 'Tenant ID is required' });
    expect((await h.call(admin, 'GET', '/storage?tenantId=acme')).status).toBe(404);
    const track = await h.call(admin, 'POST', '/storage/track', {
      tenantId: '',
      action: 'upload',
      size: 10,
      fileCountDelta: 1,
    });
    expect(track.body.detail).toBe('Tenant ID is required');
  });

  it('accepts the spec’s storage/track fallback and changes nothing: the drive counts usage itself', async () => {
    const before = (await h.call(admin, 'GET', '/storage')).body;
    const answer = await h.call(admin, 'POST', '/storage/track', {
      tenantId: 'demo',
      action: 'upload',
      size: 1_000_000,
      mimeType: 'application/pdf',
      fileCountDelta: 1,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      tracked: false,
      reason:
        'The drive counts storage itself when a file is registered, versioned or purged; nothing was added.',
    });
    const after = (await h.call(admin, 'GET', '/storage')).body;
    expect([after.used, after.fileCount]).toEqual([before.used, before.fileCount]);
    const invalid = await h.call(admin, 'POST', '/storage/track', {
      action: 'rename',
      size: -1,
      fileCountDelta: 2,
    });
    expect(invalid.status).toBe(400);
    expect(
      (
        await h.call(admin, 'POST', '/storage/track', {
          tenantId: 'acme',
          action: 'delete',
          size: 1,
          fileCountDelta: -1,
        })
      ).status,
    ).toBe(404);
  });

  it('changes the tier for a super-administrator: identity’s record and the drive’s custom limit (STORAGE_TIER_CHANGED)', async () => {
    const refused = await h.call(admin, 'POST', '/storage/tier', { tenantId: 'demo', tier: 'enterprise' });
    expect(refused.status).toBe(403);

    await adminQuery(h, "UPDATE identity.users SET super_admin = true WHERE email = 'admin@demo.test'");
    h.identity.definition.context().scopeCache.invalidateTenant('demo');
    try {
      const superAdmin = await h.signInAs('admin@demo.test');
      const missing = await h.call(superAdmin, 'POST', '/storage/tier', { tier: 'starter' });
      expect(missing.status).toBe(400);
      expect(missing.body.detail).toBe('Tenant ID is required');
      const noLimit = await h.call(superAdmin, 'POST', '/storage/tier', { tenantId: 'demo', tier: 'custom' });
      expect(noLimit.status).toBe(400);

      const changed = await h.call(superAdmin, 'POST', '/storage/tier', {
        tenantId: 'demo',
        tier: 'custom',
        customLimitGB: 42,
        customFeatures: { analytics: true },
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        tier: 'custom',
        limit: null,
        customLimit: 42 * GIB,
        cap: 42 * GIB,
        features: { versioning: true, analytics: true, advancedSharing: false, customRetention: true },
      });
      const [tenant] = await adminQuery(
        h,
        "SELECT storage_tier FROM identity.tenants WHERE tenant_id = 'demo'",
      );
      expect(tenant?.storage_tier).toBe('custom');
      expect(await outboxRows(h, 'drive.storage.tier_changed')).toHaveLength(1);
      // The tenant's storage config row (drive.md §3): its custom limit and features, created and updated times.
      const [config] = await adminQuery(
        h,
        "SELECT custom_limit, custom_features, created_at, updated_at FROM drive.storage_usage WHERE tenant_id = 'demo'",
      );
      expect(config).toMatchObject({ custom_limit: 42 * GIB, custom_features: { analytics: true } });
      expect(config?.created_at).toBeInstanceOf(Date);
      expect((config?.updated_at as Date).getTime()).toBeGreaterThanOrEqual(
        (config?.created_at as Date).getTime(),
      );
      // Everyone's quota now reads the new tier.
      expect((await h.call(admin, 'GET', '/storage')).body).toMatchObject({ tier: 'custom', cap: 42 * GIB });

      const back = await h.call(superAdmin, 'POST', '/storage/tier', {
        tenantId: 'demo',
        tier: 'professional',
      });
      expect(back.body).toMatchObject({ tier: 'professional', customLimit: null, cap: 200 * GIB });
    } finally {
      await adminQuery(h, "UPDATE identity.users SET super_admin = false WHERE email = 'admin@demo.test'");
      h.identity.definition.context().scopeCache.invalidateTenant('demo');
      await adminQuery(
        h,
        "UPDATE identity.tenants SET storage_tier = 'professional' WHERE tenant_id = 'demo'",
      );
    }
  });
});
