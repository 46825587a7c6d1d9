import {
  ApiRouter,
  hasScope,
  idempotencyKey,
  problems,
  serveSse,
  type RequestContext,
  type SseHub,
} from '@workspace/kit';
import type { AuditDeps } from '../audit-deps.js';
import { recordClientEvent } from '../commands/client-events.js';
import { entriesCsv, exportChain, listEntries, readerScope } from '../commands/query-entries.js';
import { verifyChain } from '../commands/verify-chain.js';
import { AUDIT_READ_SCOPE } from '../domain/entries.js';
import { presentCheckpoint, presentEntry } from './entries.present.js';
import {
  clientEventBody,
  clientEventResponse,
  entryFilterQuery,
  entryListQuery,
  entryListResponse,
  publicKeyResponse,
  verifyResponse,
} from './entries.schemas.js';

const reader = (ctx: RequestContext) => ({ tenantId: ctx.tenantId, scopes: ctx.scopes });

/** The tenant's auditor (audit.read): what only a reader of the whole chain may do (verify, export). */
const requireTenantAuditor = (ctx: RequestContext) => {
  if (!hasScope(ctx, AUDIT_READ_SCOPE)) throw problems.forbidden('This requires the audit.read permission.');
};

/**
 * The query API (docs/audit.md "The query API"): the staff screen's list, CSV and live stream, audit_logEvent, verify,
 * the export for the offline verifier and the checkpoint key. A reader sees their own tenant only (the token's);
 * audit.read every module's entries, cis.audit.read and drive.audit.read their module's.
 */
export function entryRoutes(deps: AuditDeps, hub: SseHub): ApiRouter {
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/entries',
      summary:
        'A page of the tenant’s audit entries, newest first, filtered by action, actor, target and occurredAt range (audit.read, cis.audit.read or drive.audit.read)',
      request: { query: entryListQuery },
      responses: {
        200: { description: 'The page and how many entries match', schema: entryListResponse },
        403: { description: 'None of the audit read permissions' },
      },
      handler: async ({ ctx, query }) => {
        const { page, pageSize, ...filter } = query;
        const found = await listEntries(deps, reader(ctx), filter, page, pageSize);
        return { ...found, items: found.items.map(presentEntry) };
      },
    })
    .route({
      method: 'get',
      path: '/entries.csv',
      summary: 'The entries matching the filters as a CSV file (newest first; every cell neutralised)',
      request: { query: entryFilterQuery },
      responses: {
        200: { description: 'text/csv attachment' },
        403: { description: 'No audit read permission' },
      },
      handler: async ({ ctx, query, res }) => {
        const file = await entriesCsv(deps, reader(ctx), query);
        res
          .status(200)
          .set({
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': `attachment; filename="${file.filename}"`,
            'Cache-Control': 'no-store',
          })
          .send(file.content);
      },
    })
    .route({
      method: 'get',
      path: '/entries/stream',
      summary:
        'Server-Sent Events: `entry` with each new entry the reader may see (an entry view), or `changed` with {seq, module} for one too large to send (refetch)',
      responses: {
        200: { description: 'text/event-stream' },
        403: { description: 'No audit read permission' },
      },
      handler: async ({ ctx, req, res }) => {
        const { modules } = readerScope(reader(ctx));
        await serveSse(hub, ctx.tenantId, req, res, {
          filter: (message) => {
            if (!modules) return true;
            const entry = JSON.parse(message.data) as { module?: string };
            return entry.module !== undefined && modules.includes(entry.module);
          },
        });
      },
    })
    .route({
      method: 'post',
      path: '/client-events',
      summary:
        'audit_logEvent: a client-side action (an export, a link copied) recorded in the caller’s tenant’s trail, as the caller (source client)',
      request: { body: clientEventBody },
      status: 202,
      responses: {
        202: { description: 'Recorded: the entry’s id', schema: clientEventResponse },
        400: { description: 'Not a client action, a payload too large, or a malformed X-Idempotency-Key' },
      },
      handler: async ({ ctx, body, req }) => {
        const { id } = await recordClientEvent(deps, ctx, body, idempotencyKey(req));
        return { accepted: true as const, id };
      },
    })
    .route({
      method: 'post',
      path: '/verify',
      summary: 'Verifies the tenant’s chain now and names its first broken link (audit.read)',
      responses: {
        200: { description: 'The result (ok, or the first break: seq and reason)', schema: verifyResponse },
        403: { description: 'Without audit.read' },
      },
      handler: async ({ ctx }) => {
        requireTenantAuditor(ctx);
        return verifyChain(deps, ctx.tenantId);
      },
    })
    .route({
      method: 'get',
      path: '/export',
      summary:
        'The tenant’s whole chain as NDJSON for the offline verifier: entries in seq order, each checkpoint after the entry it covers (audit.read)',
      responses: { 200: { description: 'application/x-ndjson' }, 403: { description: 'Without audit.read' } },
      handler: async ({ ctx, res }) => {
        requireTenantAuditor(ctx);
        res.status(200).set({
          'Content-Type': 'application/x-ndjson; charset=utf-8',
          'Content-Disposition': `attachment; filename="audit-${ctx.tenantId}.ndjson"`,
          'Cache-Control': 'no-store',
        });
        for await (const line of exportChain(deps, ctx.tenantId)) {
          const json =
            line.kind === 'entry'
              ? { kind: 'entry', tenantId: line.entry.tenantId, ...presentEntry(line.entry) }
              : { kind: 'checkpoint', ...presentCheckpoint(line.checkpoint) };
          if (!res.write(`${JSON.stringify(json)}\n`))
            await new Promise((resolve) => res.once('drain', resolve));
        }
        res.end();
      },
    })
    .route({
      method: 'get',
      path: '/checkpoints/public-key',
      summary: 'The Ed25519 public key checkpoints are signed with (docs/audit.md "Checkpoints")',
      public: true,
      responses: {
        200: { description: 'The key', schema: publicKeyResponse },
        503: { description: 'No signing key is configured' },
      },
      handler: () => {
        const key = deps.checkpointKey;
        if (!key)
          return Promise.reject(problems.unavailable('Checkpoints are not signed: no key is configured.'));
        return Promise.resolve({
          algorithm: 'ed25519' as const,
          keyId: key.keyId,
          publicKeyPem: key.publicKeyPem,
        });
      },
    });
}
