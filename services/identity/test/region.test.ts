import { REGIONS } from '../src/domain/tenant.js';
import { tenantSeedSchema } from '../src/commands/seed-tenant.js';

const seed = (tenant: Record<string, unknown>) => ({
  tenant: { id: 'acme', name: 'Acme', ...tenant },
  users: [],
});

describe('tenant databaseRegion', () => {
  it('is one of uk (the default), eu or us', () => {
    expect([...REGIONS].sort()).toEqual(['eu', 'uk', 'us']);
    expect(REGIONS[0]).toBe('uk');
  });

  it('a tenant whose region is missing is in uk', () => {
    expect(tenantSeedSchema.parse(seed({})).tenant.region).toBe('uk');
    expect(tenantSeedSchema.parse(seed({ region: undefined })).tenant.region).toBe('uk');
  });

  it('eu and us are kept; any other region is refused', () => {
    expect(tenantSeedSchema.parse(seed({ region: 'eu' })).tenant.region).toBe('eu');
    expect(tenantSeedSchema.parse(seed({ region: 'us' })).tenant.region).toBe('us');
    for (const region of ['fr', 'UK', 'europe-west2', '']) {
      expect(tenantSeedSchema.safeParse(seed({ region })).success).toBe(false);
    }
  });
});
