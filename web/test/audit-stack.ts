// What the audit screen's browser journeys share: the CIS stack (identity with the dev OIDC provider, notification,
// cis, publishing to the shared Kafka) plus the audit service consuming the module topics from their ends into its
// own schema of the same test database, and the bff in front of them serving the built bundles, /api/audit/* forwarded.
import { randomBytes } from 'node:crypto';
import type { JWTVerifyGetKey } from 'jose';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { auditConfigSchema, auditService, type AuditConfig } from '@workspace/audit';
import { provisionAuditSchema, testCheckpointKey } from '@workspace/audit/testing';
import type { RunningBff } from '@workspace/bff';
import { startCisHarness, type CisHarness } from '@workspace/cis/testing';
import { remoteJwks, startService, type StartedService } from '@workspace/kit';
import { serviceTestEnv, startGroupAtTopicEnd } from '@workspace/kit/testing';
import { allTopics, AUDIT_TOPIC } from '@workspace/proto';
import { freeOrigin, launchChromium, prepareArtifacts, signInThroughPages, startTestBff } from './browser.js';

export interface AuditBrowserStack {
  baseUrl: string;
  /** identity (tenant demo), notification and cis, with their test issuer and clock. */
  harness: CisHarness;
  /** The audit service: it takes identity's tokens (what the bff sends) and the test issuer's. */
  audit: StartedService<AuditConfig>;
  auditUrl: string;
  /**
   * SQL on the audit schema as the database superuser, bypassing the service, its role, row-level security and the
   * append-only triggers (what a person with database access could do, and what the chain detects).
   */
  auditSql<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  bff: RunningBff;
  browser: Browser;
  /** A new browser context (en-GB, 1366×900, downloads kept) with a demo user signed in through the pages. */
  newPage(email: string): Promise<Page>;
  stop(): Promise<void>;
}

/** The audit stack on a free local origin: one test database (a schema per service), one bff, one Chromium. */
export async function startAuditBrowserStack(): Promise<AuditBrowserStack> {
  prepareArtifacts();
  const baseUrl = await freeOrigin();
  const harness = await startCisHarness({ publicUrl: baseUrl });
  const adminUrl = harness.identity.database.adminUrl;
  const roles = await provisionAuditSchema(adminUrl);
  // A new consumer group placed at the end of every module topic: it reads what this stack's services publish, not
  // what earlier runs left on the shared Kafka.
  const group = `audit-web-${randomBytes(5).toString('hex')}`;
  for (const topic of allTopics.filter((name) => name !== AUDIT_TOPIC))
    await startGroupAtTopicEnd(group, topic);
  const auditConfig = auditConfigSchema.parse({
    ...serviceTestEnv(roles),
    AUDIT_CONSUMER_GROUP: group,
    AUDIT_CHECKPOINT_PRIVATE_KEY: testCheckpointKey().privateKeyPem,
  });
  const identityKeys = remoteJwks(`${harness.identity.baseUrl}/.well-known/jwks.json`);
  const keys: JWTVerifyGetKey = (header, token) =>
    header.kid === 'test' ? harness.issuer.keys(header, token) : identityKeys(header, token);
  const audit = await startService(auditService(auditConfig, { clock: harness.clock }), auditConfig, {
    keys,
    relayPollIntervalMs: 100,
  });
  const auditUrl = `http://127.0.0.1:${audit.port}`;
  const bff = await startTestBff(baseUrl, harness.identity.baseUrl, {
    CIS_URL: harness.cisUrl,
    AUDIT_URL: auditUrl,
  });
  const browser = await launchChromium();
  return {
    baseUrl,
    harness,
    audit,
    auditUrl,
    auditSql: async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query('SET search_path TO audit');
        await client.query('SET session_replication_role = replica');
        return (await client.query<T>(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    bff,
    browser,
    newPage: async (email) => {
      const context = await browser.newContext({
        viewport: { width: 1366, height: 900 },
        locale: 'en-GB',
        acceptDownloads: true,
      });
      const page = await context.newPage();
      await signInThroughPages(page, baseUrl, email);
      return page;
    },
    stop: async () => {
      await browser.close();
      await bff.shutdown();
      await audit.shutdown();
      await harness.stop();
    },
  };
}

/** One audit stack for a test file: started before its tests (then handed to `started`), stopped after them. */
export function auditStackPerFile(started: (stack: AuditBrowserStack) => void | Promise<void>): void {
  let stack: AuditBrowserStack | undefined;
  beforeAll(async () => {
    stack = await startAuditBrowserStack();
    await started(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });
}
