import { randomBytes } from 'node:crypto';
import { testingEvents } from '@workspace/proto';
import request from 'supertest';
import { recordEvent, SensitiveTextError, withTenant } from '../src/index.js';
import {
  createTestDatabase,
  createTestIssuer,
  type TestDatabase,
  type TestIssuer,
} from '../src/testing/index.js';
import { startLedgerService } from './fixtures/ledger-service.js';

let database: TestDatabase;
let issuer: TestIssuer;
let service: Awaited<ReturnType<typeof startLedgerService>>;

beforeAll(async () => {
  database = await createTestDatabase('outbox_privacy');
  issuer = await createTestIssuer();
  service = await startLedgerService(
    database.adminUrl,
    { BUS: 'memory' },
    { keys: issuer.keys, relayPollIntervalMs: 250 },
  );
});

afterAll(async () => {
  await service.shutdown();
  await database.drop();
});

const newTenant = () => `t-${randomBytes(4).toString('hex')}`;

async function post(tenantId: string, note: string) {
  const token = await issuer.token({ tenantId, scopes: ['ledger.write'] });
  return request(service.server)
    .post('/api/ledgers/books/entries')
    .set('authorization', `Bearer ${token}`)
    .send({ amountP: 1000, note });
}

const outboxRows = (tenantId: string) =>
  withTenant(service.deps.db, tenantId, (trx) =>
    trx('outbox')
      .where({ tenant_id: tenantId })
      .select<{ subject: string; payload: Record<string, unknown> }[]>('subject', 'payload'),
  );

describe('outbox refuses tax references and NINOs in event text', () => {
  it('refuses an event whose text holds a 10-digit number or a NINO; the whole change rolls back', async () => {
    const tenantId = newTenant();
    for (const note of ['paid UTR 1234567890', 'NI number ab 12 34 56 c']) {
      const response = await post(tenantId, note);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: 'validation_failed',
        errors: [
          {
            field: 'data.note',
            message: 'Must not contain a tax reference (10-digit number) or a National Insurance number',
          },
        ],
      });
      expect(JSON.stringify(response.body)).not.toContain(note);
    }
    const entries = await withTenant(service.deps.db, tenantId, (trx) => trx('ledger_entries').select());
    expect(entries).toEqual([]);
    expect(await outboxRows(tenantId)).toEqual([]);
  });

  it('records ordinary events: ids, amounts in pence, invoice-like references, dates', async () => {
    const tenantId = newTenant();
    const response = await post(
      tenantId,
      'INV-000123 £12,345.67 on 2026-11-23 for 5a9e0c1d-2b3f-4a5c-9d8e-7f6a5b4c3d2e',
    );
    expect(response.status).toBe(201);
    const rows = await outboxRows(tenantId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.payload).toMatchObject({ note: expect.stringContaining('INV-000123') as unknown });
  });

  it("with sensitiveText 'mask', records the event with each identifier masked (subject too)", async () => {
    const tenantId = newTenant();
    await withTenant(service.deps.db, tenantId, (trx) =>
      recordEvent(
        trx,
        'test',
        testingEvents.ledgerEntryRecorded,
        {
          tenantId,
          aggregateId: 'books',
          subject: 'bounce for 0123456789',
          data: { ledgerId: 'books', sequence: 1n, amountP: 1234567890n, note: 'server said AB123456C' },
        },
        { sensitiveText: 'mask' },
      ),
    );
    const rows = await outboxRows(tenantId);
    expect(rows).toEqual([
      {
        subject: 'bounce for ******6789',
        payload: expect.objectContaining({ note: 'server said AB******C', amountP: '1234567890' }) as unknown,
      },
    ]);
  });

  it('throws SensitiveTextError to a direct caller', async () => {
    const tenantId = newTenant();
    await expect(
      withTenant(service.deps.db, tenantId, (trx) =>
        recordEvent(trx, 'test', testingEvents.ledgerEntryRecorded, {
          tenantId,
          aggregateId: '1234567890',
          data: { ledgerId: 'books', sequence: 1n, amountP: 1n, note: 'fine' },
        }),
      ),
    ).rejects.toBeInstanceOf(SensitiveTextError);
  });
});
