import { ServiceClient, type Logger } from '@workspace/kit';
import {
  DEFAULT_STORAGE_TIER,
  REGIONS,
  STORAGE_TIERS,
  type Region,
  type StorageTier,
} from '../domain/index.js';

const TENANT_CACHE_MS = 90_000;

const asRegion = (value: string | undefined): Region | undefined =>
  (REGIONS as readonly string[]).includes(value ?? '') ? (value as Region) : undefined;

/** Identity: a tenant's region (public metadata), its storage tier and colleagues' names (the caller's token). */
export class IdentityClient {
  private readonly client: ServiceClient;
  private readonly regions = new Map<string, { region: Region; until: number }>();
  private readonly tiers = new Map<string, { tier: StorageTier; until: number }>();

  constructor(baseUrl: string, logger: Logger) {
    this.client = new ServiceClient({
      service: 'identity',
      baseUrl,
      timeoutMs: 10_000,
      logger,
      failure: { detail: 'The identity service refused the request.' },
    });
  }

  /**
   * Where the tenant's data lives (its public metadata's databaseRegion), kept 90 s (drive.md §6's drive access
   * cache). Throws when identity cannot say: the drive never guesses a tenant's region.
   */
  async region(tenantId: string): Promise<Region> {
    const cached = this.regions.get(tenantId);
    if (cached && cached.until > Date.now()) return cached.region;
    const answer = (await this.client.get({
      path: `/v1/tenants/${encodeURIComponent(tenantId)}/metadata`,
      caller: 'anonymous',
    })) as { databaseRegion?: string };
    const region = asRegion(answer.databaseRegion);
    if (!region) throw new Error(`identity gave tenant ${tenantId} no known region`);
    this.regions.set(tenantId, { region, until: Date.now() + TENANT_CACHE_MS });
    return region;
  }

  /** The tenant's storage tier (GET /v1/tenant with the caller's token), kept 90 s. Throws when identity refuses. */
  async storageTier(tenantId: string, authorization: string): Promise<StorageTier> {
    const cached = this.tiers.get(tenantId);
    if (cached && cached.until > Date.now()) return cached.tier;
    const answer = (await this.client.get({ path: '/v1/tenant', caller: { authorization } })) as {
      storageTier?: string;
    };
    const tier = (STORAGE_TIERS as readonly string[]).includes(answer.storageTier ?? '')
      ? (answer.storageTier as StorageTier)
      : DEFAULT_STORAGE_TIER;
    this.tiers.set(tenantId, { tier, until: Date.now() + TENANT_CACHE_MS });
    return tier;
  }

  /** Forget what is cached about a tenant (its tier changed). */
  forget(tenantId: string): void {
    this.regions.delete(tenantId);
    this.tiers.delete(tenantId);
  }

  /** The names of these colleagues (identity's GET /v1/users/names, with the reader's token); none on failure. */
  async userNames(authorization: string, ids: readonly string[]): Promise<Map<string, string>> {
    try {
      return await this.colleagues(authorization, ids);
    } catch {
      return new Map();
    }
  }

  /**
   * The users of the caller's tenant among these ids, with their names (identity's GET /v1/users/names answers
   * only the caller's tenant): an id missing from the answer is no user of the tenant. Throws when identity cannot
   * answer (the caller must not take that for "unknown").
   */
  async colleagues(authorization: string, ids: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)].filter((id) => id !== '');
    if (unique.length === 0) return new Map();
    const answer = (await this.client.get({
      path: `/v1/users/names?ids=${encodeURIComponent(unique.slice(0, 100).join(','))}`,
      caller: { authorization },
    })) as { items?: { uid: string; displayName: string }[] } | undefined;
    return new Map((answer?.items ?? []).map((user) => [user.uid, user.displayName]));
  }

  /** Sets the tenant's storage tier at identity (PUT /v1/tenant/storage-tier, the caller's super-admin token). */
  async setStorageTier(tenantId: string, authorization: string, tier: StorageTier): Promise<void> {
    await this.client.put({
      path: '/v1/tenant/storage-tier',
      caller: { authorization },
      body: { storageTier: tier },
    });
    this.forget(tenantId);
  }
}
