// The batch verification update (cis.md section 7: 'update verification' is a batch write answering a success id
// list and a failed list, followed by a bulk audit entry; section 8: its cause 'Batch verification update failed').
// POST /v1/subcontractors/bulk/verification records one verification for many subcontractors with the single
// update's rules: the status sets the rate (gross 0, standard 20, higher 30), the same validation messages, the same
// scope (cis.sub.verify) and the same per-subcontractor cis.subcontractor.verified entry.
import { eventually } from '@workspace/kit/testing';
import { londonDate } from '../src/domain/index.js';
import {
  adminQuery,
  ALL_CIS_SCOPES,
  freshIdentifiers,
  startCisHarness,
  storedRow,
  subcontractorBody,
  type CisHarness,
} from './support.js';

const ADMIN = '00000000-0000-4000-8000-0000000000ad';
const UNKNOWN = '00000000-0000-4000-8000-0000000bad02';
const ARCHIVED_ERROR = 'Archived subcontractors cannot be verified';
const DELETED_ERROR = 'Deleted subcontractors cannot be verified';
const NOT_FOUND_ERROR = 'Subcontractor not found';

let h: CisHarness;
let admin: string;

beforeAll(async () => {
  h = await startCisHarness();
  admin = await h.token(ALL_CIS_SCOPES, 'demo', ADMIN);
});

afterAll(async () => {
  await h.stop();
});

async function createSubcontractor(name: string): Promise<string> {
  // Identifiers of its own: an active subcontractor's are unique in the tenant (ADR 0039).
  const created = await h.call(
    admin,
    'POST',
    '/subcontractors',
    subcontractorBody({ name, ...freshIdentifiers() }),
  );
  expect(created.status).toBe(201);
  return (created.body.subcontractor as { id: string }).id;
}

async function verificationOf(id: string) {
  const row = await storedRow(h, 'subcontractors', { id });
  return {
    status: row?.verification_status,
    rate: row?.verification_rate,
    method: row?.verification_method,
    reference: row?.verification_reference,
    notes: row?.verification_notes,
    verifiedDate: row?.verified_date,
    verifiedBy: row?.verified_by,
  };
}

const bulkVerify = (token: string, ids: string[], verification: Record<string, unknown>) =>
  h.call(token, 'POST', '/subcontractors/bulk/verification', { ids, verification });

const activity = (action: string) =>
  adminQuery(
    h,
    `SELECT action, target_id, summary, details, performed_by FROM cis.activity WHERE action = $1 ORDER BY id`,
    [action],
  );

describe('batch verification update', () => {
  it('verifies the active subcontractors of a mixed batch; the archived, the deleted and the unknown come back in failed', async () => {
    const first = await createSubcontractor('Vera Verify');
    const second = await createSubcontractor('Vic Verify');
    const archived = await createSubcontractor('Arch Verify');
    const deleted = await createSubcontractor('Del Verify');
    expect((await h.call(admin, 'POST', '/subcontractors/archive', { ids: [archived] })).status).toBe(200);
    expect((await h.call(admin, 'POST', '/subcontractors/delete', { ids: [deleted] })).status).toBe(200);
    const untouched = await verificationOf(archived);
    expect(untouched).toMatchObject({ status: 'standard', rate: 20 });

    const answer = await bulkVerify(admin, [first, UNKNOWN, archived, second, deleted], {
      status: 'higher',
      method: 'phone',
      reference: 'v1234 567890ab',
      notes: 'Unmatched at HMRC',
      verifiedDate: '2026-11-12',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      succeeded: [first, second],
      failed: [
        { id: UNKNOWN, error: NOT_FOUND_ERROR },
        { id: archived, error: ARCHIVED_ERROR },
        { id: deleted, error: DELETED_ERROR },
      ],
    });
    // Stored and read back: the status set the rate; the reference without spaces in capitals; who verified it.
    const verified = {
      status: 'higher',
      rate: 30,
      method: 'phone',
      reference: 'V1234567890AB',
      notes: 'Unmatched at HMRC',
      verifiedDate: '2026-11-12',
      verifiedBy: ADMIN,
    };
    for (const id of [first, second]) {
      expect(await verificationOf(id)).toEqual(verified);
      expect(await storedRow(h, 'subcontractors', { id })).toMatchObject({ updated_by: ADMIN });
    }
    const read = await h.call(admin, 'GET', `/subcontractors/${first}`);
    expect(read.body.subcontractor).toMatchObject({ verification: verified });
    // The refused ones did not change.
    expect(await verificationOf(archived)).toEqual(untouched);
    expect(await verificationOf(deleted)).toMatchObject({ status: 'standard', rate: 20, verifiedBy: null });
  });

  it.each([
    ['gross', 0],
    ['standard', 20],
    ['higher', 30],
  ] as const)(
    'status %s sets the rate of every subcontractor of the batch to %i, as the single update does',
    async (status, rate) => {
      const bulkOne = await createSubcontractor(`Bulk ${status} one`);
      const bulkTwo = await createSubcontractor(`Bulk ${status} two`);
      const single = await createSubcontractor(`Single ${status}`);
      // From another status first, so the rate really changes.
      const other = status === 'gross' ? 'higher' : 'gross';
      expect((await bulkVerify(admin, [bulkOne, bulkTwo, single], { status: other })).status).toBe(200);
      const verification = { status, method: 'online', reference: 'V1234567890' };
      const answer = await bulkVerify(admin, [bulkOne, bulkTwo], verification);
      expect(answer.body).toEqual({ succeeded: [bulkOne, bulkTwo], failed: [] });
      const one = await h.call(admin, 'POST', `/subcontractors/${single}/verification`, verification);
      expect(one.status).toBe(200);
      // Today as the UK calendar has it (the default verified date).
      const today = londonDate(new Date());
      for (const id of [bulkOne, bulkTwo, single])
        expect(await verificationOf(id)).toEqual({
          status,
          rate,
          method: 'online',
          reference: 'V1234567890',
          notes: '',
          verifiedDate: today,
          verifiedBy: ADMIN,
        });
    },
  );

  it('writes one cis.subcontractor.bulk.verify entry published to cis.events.v1 without personal data, and a cis.subcontractor.verified entry per subcontractor', async () => {
    const first = await createSubcontractor('Audit Verify One');
    const second = await createSubcontractor('Audit Verify Two');
    const archived = await createSubcontractor('Audit Verify Archived');
    expect((await h.call(admin, 'POST', '/subcontractors/archive', { ids: [archived] })).status).toBe(200);
    const answer = await bulkVerify(admin, [first, second, archived], {
      status: 'gross',
      method: 'letter',
      reference: 'V9876543210',
      notes: 'Letter from HMRC',
    });
    expect(answer.body).toEqual({
      succeeded: [first, second],
      failed: [{ id: archived, error: ARCHIVED_ERROR }],
    });

    const [bulk] = (await activity('cis.subcontractor.bulk.verify')).slice(-1);
    expect(bulk).toMatchObject({
      target_id: '',
      summary: '2 subcontractors verified at 0%, 1 failed',
      details: { status: 'gross', rate: '0', method: 'letter', count: '3' },
      performed_by: ADMIN,
    });
    const verified = (await activity('cis.subcontractor.verified')).filter((row) =>
      [first, second].includes(String(row.target_id)),
    );
    expect(verified).toEqual([
      {
        action: 'cis.subcontractor.verified',
        target_id: first,
        summary: 'Subcontractor Audit Verify One verified at 0%',
        details: { status: 'gross', rate: '0', method: 'letter' },
        performed_by: ADMIN,
      },
      {
        action: 'cis.subcontractor.verified',
        target_id: second,
        summary: 'Subcontractor Audit Verify Two verified at 0%',
        details: { status: 'gross', rate: '0', method: 'letter' },
        performed_by: ADMIN,
      },
    ]);

    // The events, published to Kafka from the outbox.
    const events = await eventually(
      async () => {
        const rows = await adminQuery(
          h,
          `SELECT type, topic, payload, payload::text AS text, published_at FROM cis.outbox
           WHERE type IN ('cis.subcontractor.bulk.verify', 'cis.subcontractor.verified') ORDER BY id`,
        );
        return rows.length > 0 && rows.every((row) => row.published_at !== null) ? rows : undefined;
      },
      30_000,
      'the verification events to be published',
    );
    const [event] = events.filter((row) => row.type === 'cis.subcontractor.bulk.verify').slice(-1);
    expect(event?.topic).toBe('cis.events.v1');
    expect(event?.payload).toMatchObject({
      actorId: ADMIN,
      targetType: 'subcontractor',
      targetIds: [first, second, archived],
      succeeded: 2,
      failed: 1,
      details: { status: 'gross', rate: '0', method: 'letter' },
    });
    const perSubcontractor = events.filter(
      (row) =>
        row.type === 'cis.subcontractor.verified' &&
        [first, second].includes((row.payload as { targetId: string }).targetId),
    );
    expect(perSubcontractor.map((row) => row.topic)).toEqual(['cis.events.v1', 'cis.events.v1']);
    const text = [event, ...perSubcontractor].map((row) => String(row?.text)).join('\n');
    for (const personal of [
      '1234567890',
      'AB123456C',
      'dave@brick.test',
      'Audit Verify',
      'V9876543210',
      'Letter from HMRC',
    ])
      expect(text).not.toContain(personal);
  });

  it('answers 403 without cis.sub.verify and changes nothing', async () => {
    const id = await createSubcontractor('Scope Verify');
    const withoutVerify = await h.token(
      ALL_CIS_SCOPES.filter((scope) => scope !== 'cis.sub.verify' && scope !== 'cis.manage'),
    );
    const answer = await bulkVerify(withoutVerify, [id], { status: 'gross', method: 'online' });
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toBe('This requires the cis.sub.verify permission.');
    expect(await verificationOf(id)).toMatchObject({ status: 'standard', rate: 20, verifiedBy: null });
    // cis.sub.verify alone is enough.
    const verifier = await h.token(['cis.sub.verify']);
    expect((await bulkVerify(verifier, [id], { status: 'gross', method: 'online' })).body).toEqual({
      succeeded: [id],
      failed: [],
    });
  });

  it('refuses an invalid verification with the single update’s messages, and ids outside 1 to 1000, changing nothing', async () => {
    const id = await createSubcontractor('Invalid Verify');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ status: 'premium' }, 'verification.status', 'Invalid verification status'],
      [
        { status: 'higher', reference: 'X12345' },
        'verification.reference',
        'Invalid verification number (e.g., V1234567890 or V1234567890AB)',
      ],
      [
        { status: 'gross', rate: 20 },
        'verification.rate',
        'CIS rate must match the verification status (gross 0%, standard 20%, higher 30%)',
      ],
      [
        { status: 'standard', notes: 'NI AB123456C' },
        'verification.notes',
        'Must not contain a tax reference (10-digit number) or a National Insurance number',
      ],
    ];
    for (const [verification, field, message] of cases) {
      const answer = await bulkVerify(admin, [id], verification);
      expect({ verification, status: answer.status, errors: answer.body.errors }).toEqual({
        verification,
        status: 400,
        errors: [{ field: `body.${field}`, message }],
      });
      // The single update answers the same message for the same verification.
      const single = await h.call(admin, 'POST', `/subcontractors/${id}/verification`, verification);
      expect(single.status).toBe(400);
      expect(single.body.errors).toEqual(answer.body.errors);
    }
    const method = await bulkVerify(admin, [id], { status: 'gross', method: 'fax' });
    expect(method.status).toBe(400);
    expect(method.body.errors).toEqual([{ field: 'body.verification.method', message: expect.any(String) }]);
    const tooMany = Array.from(
      { length: 1001 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    for (const ids of [[], tooMany, ['not-a-uuid']]) {
      const answer = await bulkVerify(admin, ids, { status: 'gross' });
      expect(answer.status).toBe(400);
      expect((answer.body.errors as { field: string }[]).map((error) => error.field)[0]).toMatch(
        /^body\.ids/,
      );
    }
    expect((await bulkVerify(admin, [id], { status: 'gross' })).status).toBe(200);
    const missing = await h.call(admin, 'POST', '/subcontractors/bulk/verification', { ids: [id] });
    expect(missing.status).toBe(400);
    expect(await verificationOf(id)).toMatchObject({ status: 'gross', rate: 0 });
  });

  it('a batch the database refuses answers 500 with Batch verification update failed and changes nothing', async () => {
    const one = await createSubcontractor('Fail Verify One');
    const two = await createSubcontractor('Fail Verify Two');
    const bulkEntries = (await activity('cis.subcontractor.bulk.verify')).length;
    await adminQuery(
      h,
      `CREATE OR REPLACE FUNCTION cis.refuse_subcontractor_update() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'subcontractors are read-only for this test'; END $$`,
    );
    await adminQuery(
      h,
      `CREATE TRIGGER refuse_subcontractor_update BEFORE UPDATE ON cis.subcontractors
      FOR EACH ROW EXECUTE FUNCTION cis.refuse_subcontractor_update()`,
    );
    try {
      const answer = await bulkVerify(admin, [one, two], { status: 'gross', method: 'online' });
      expect({ status: answer.status, detail: answer.body.detail }).toEqual({
        status: 500,
        detail: 'Batch verification update failed',
      });
    } finally {
      await adminQuery(h, 'DROP TRIGGER refuse_subcontractor_update ON cis.subcontractors');
      await adminQuery(h, 'DROP FUNCTION cis.refuse_subcontractor_update()');
    }
    // Nothing changed: no verification, no bulk entry; the failure is recorded as cis.error with its cause.
    for (const id of [one, two])
      expect(await verificationOf(id)).toMatchObject({ status: 'standard', rate: 20, verifiedBy: null });
    expect(await activity('cis.subcontractor.bulk.verify')).toHaveLength(bulkEntries);
    await eventually(
      async () =>
        (await activity('cis.error')).some(
          (row) => (row.details as Record<string, string>).reason === 'Batch verification update failed',
        ),
      20_000,
      'the cis.error entry',
    );
    // The same batch now succeeds.
    const again = await bulkVerify(admin, [one, two], { status: 'gross', method: 'online' });
    expect(again.body).toEqual({ succeeded: [one, two], failed: [] });
    for (const id of [one, two]) expect(await verificationOf(id)).toMatchObject({ status: 'gross', rate: 0 });
  });
});
