import { createHash } from 'node:crypto';
import { entryHash } from '../src/chain/hash.js';
import { ChainWalker } from '../src/chain/verify.js';
import { canonicalEntry, draftFromEvent, GENESIS_HASH, type AuditEntry } from '../src/domain/entries.js';

const chain = (count: number): AuditEntry[] => {
  const entries: AuditEntry[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const unhashed = {
      tenantId: 't1',
      seq,
      id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
      action: 'cis.invoice.approved',
      module: 'cis',
      source: '/workspace/cis',
      targetId: `inv-${seq}`,
      actorId: 'u1',
      occurredAt: new Date(Date.UTC(2026, 10, 20, 10, 0, seq)),
      recordedAt: new Date(Date.UTC(2026, 10, 20, 10, 1, seq)),
      sourceEventId: `ev-${seq}`,
      payload: { status: 'approved', grossPence: String(seq * 100) },
      prevHash: entries.at(-1)?.hash ?? GENESIS_HASH,
    };
    entries.push({ ...unhashed, hash: entryHash(unhashed) });
  }
  return entries;
};

const walk = (entries: AuditEntry[]) => {
  const walker = new ChainWalker();
  for (const entry of entries) walker.push(entry);
  return walker.result();
};

describe('the canonical form', () => {
  it('is the documented JSON array, payload sorted by key, and the hash its sha-256', () => {
    const [first] = chain(1);
    if (!first) throw new Error('no entry');
    const { hash, ...rest } = first;
    const text = canonicalEntry(rest);
    expect(text).toBe(
      '["workspace.audit.v1","t1",1,"00000000-0000-4000-8000-000000000001","cis.invoice.approved","cis","/workspace/cis","inv-1","u1","2026-11-20T10:00:01.000Z","2026-11-20T10:01:01.000Z","ev-1",[["grossPence","100"],["status","approved"]],"0000000000000000000000000000000000000000000000000000000000000000"]',
    );
    expect(hash).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });
});

describe('the chain walker', () => {
  it('accepts an intact chain', () => {
    expect(walk(chain(5))).toBeUndefined();
  });

  it('names an edited entry: hash_mismatch at its seq', () => {
    const entries = chain(5);
    entries[2] = { ...entries[2]!, actorId: 'someone-else' };
    expect(walk(entries)).toMatchObject({ seq: 3, reason: 'hash_mismatch' });
  });

  it('names a deleted entry: gap at its seq', () => {
    const entries = chain(5);
    entries.splice(1, 1);
    expect(walk(entries)).toMatchObject({ seq: 2, reason: 'gap' });
  });

  it('names swapped entries (seq renumbered): reordered at the first', () => {
    const entries = chain(5);
    const [third, fourth] = [entries[2]!, entries[3]!];
    entries[2] = { ...fourth, seq: 3 };
    entries[3] = { ...third, seq: 4 };
    expect(walk(entries)).toMatchObject({ seq: 3, reason: 'reordered' });
  });

  it('names swapped lines of an export: reordered at the seq out of place', () => {
    const entries = chain(5);
    [entries[2], entries[3]] = [entries[3]!, entries[2]!];
    expect(walk(entries)).toMatchObject({ seq: 3, reason: 'reordered' });
  });

  it('names a rewritten entry with a recomputed hash: prev_hash_mismatch at the next', () => {
    const entries = chain(5);
    const forged = { ...entries[1]!, actorId: 'forged' };
    entries[1] = { ...forged, hash: entryHash(forged) };
    expect(walk(entries)).toMatchObject({ seq: 3, reason: 'prev_hash_mismatch' });
  });
});

describe('an event as an entry', () => {
  it('keeps identifiers, counts and statuses, never names, e-mail addresses or free text', () => {
    const draft = draftFromEvent(
      {
        id: 'e1',
        type: 'drive.file.uploaded',
        source: '/workspace/drive',
        time: '2026-11-20T10:00:00.000Z',
        subject: 'f1',
        module: 'drive',
        data: {
          action: 'FILE_UPLOADED',
          actorId: 'u1',
          targetType: 'file',
          targetId: 'f1',
          targetIds: ['f1', 'f2'],
          details: {
            fileName: 'Jo Bloggs CV.pdf',
            driveId: 'd1',
            email: 'jo@example.com',
            note: 'for Jo',
            size: '12',
          },
        },
      },
      (text) => text.replace(/\d{10}/g, '**********'),
    );
    expect(draft).toMatchObject({ action: 'FILE_UPLOADED', actorId: 'u1', targetId: 'f1', module: 'drive' });
    expect(draft.payload).toEqual({ targetType: 'file', targetIds: 'f1,f2', driveId: 'd1', size: '12' });
  });
});
