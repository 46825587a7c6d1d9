// Walks a tenant's chain in seq order and names the first broken link (docs/audit.md "Verification"). Used by the
// verify command (rows from the database, in batches) and by the offline verifier (an export or the stream).
import { GENESIS_HASH, type AuditEntry } from '../domain/entries.js';
import { entryHash } from './hash.js';

export type BreakReason =
  /** The entry's content does not give its hash: it was edited. */
  | 'hash_mismatch'
  /** The entry's prevHash is not the hash of the entry before it: an entry before it was rewritten or replaced. */
  | 'prev_hash_mismatch'
  /** The entry carries the hash of an entry that comes after it: entries were reordered. */
  | 'reordered'
  /** A seq is missing: an entry was deleted. */
  | 'gap'
  /** The chain ends before the tenant's head (or a signed checkpoint): its tail was deleted. */
  | 'truncated'
  /** The entry at a signed checkpoint's seq is not the one signed: the tail was rewritten. */
  | 'checkpoint_mismatch'
  /** A checkpoint's signature does not verify with the published key. */
  | 'bad_signature';

export interface ChainBreak {
  seq: number;
  reason: BreakReason;
  detail: string;
}

/**
 * Takes the entries of one tenant in the order they are stored (by seq) and keeps the first break. After a
 * prevHash mismatch it keeps reading, only to tell a reordering (a later entry holds the hash it points to) from a
 * rewrite.
 */
export class ChainWalker {
  private expectedSeq = 1;
  private prevHash = GENESIS_HASH;
  private found: ChainBreak | undefined;
  /** A prevHash mismatch waiting to be classified: the hash it points to, if a later entry has it. */
  private pending:
    | { seq: number; fallback: BreakReason; detail: string; movedHere: (entry: AuditEntry) => boolean }
    | undefined;
  private readonly hashes = new Map<number, string>();
  count = 0;

  /** The last entry read in order (seq and hash), when the chain held so far. */
  get head(): { seq: number; hash: string } {
    return { seq: this.expectedSeq - 1, hash: this.prevHash };
  }

  /** The hash stored at `seq`, when it was read. */
  hashAt(seq: number): string | undefined {
    return this.hashes.get(seq);
  }

  push(entry: AuditEntry): void {
    this.count++;
    if (this.pending?.movedHere(entry)) {
      this.found = {
        seq: this.pending.seq,
        reason: 'reordered',
        detail: `${this.pending.detail}; the entry it expects comes later (stored as seq ${entry.seq})`,
      };
      this.pending = undefined;
    }
    if (this.found || this.pending) return;
    this.hashes.set(entry.seq, entry.hash);
    if (entry.seq > this.expectedSeq) {
      const missing = this.expectedSeq;
      this.pending = {
        seq: missing,
        fallback: 'gap',
        detail: `seq ${missing} is missing where it belongs (seq ${entry.seq} follows seq ${missing - 1})`,
        movedHere: (later) => later.seq === missing,
      };
      return;
    }
    if (entry.seq < this.expectedSeq) {
      this.found = {
        seq: entry.seq,
        reason: 'reordered',
        detail: `seq ${entry.seq} comes again after seq ${this.expectedSeq - 1}`,
      };
      return;
    }
    if (entry.prevHash !== this.prevHash) {
      const pointsTo = entry.prevHash;
      this.pending = {
        seq: entry.seq,
        fallback: 'prev_hash_mismatch',
        detail: `prevHash ${pointsTo.slice(0, 12)}… is not the hash of seq ${entry.seq - 1} (${this.prevHash.slice(0, 12)}…)`,
        movedHere: (later) => later.hash === pointsTo,
      };
      return;
    }
    const { hash, ...rest } = entry;
    const computed = entryHash(rest);
    if (computed !== hash) {
      this.found = {
        seq: entry.seq,
        reason: 'hash_mismatch',
        detail: `the entry's content hashes to ${computed.slice(0, 12)}…, not its hash ${hash.slice(0, 12)}…`,
      };
      return;
    }
    this.prevHash = hash;
    this.expectedSeq++;
  }

  /** Names a break found outside the entries (the head, a checkpoint), unless an earlier one is known. */
  report(found: ChainBreak): void {
    this.settle();
    if (!this.found || found.seq < this.found.seq) this.found = found;
  }

  private settle(): void {
    if (this.pending) {
      this.found = { seq: this.pending.seq, reason: this.pending.fallback, detail: this.pending.detail };
      this.pending = undefined;
    }
  }

  /** The first break, once every entry was pushed. */
  result(): ChainBreak | undefined {
    this.settle();
    return this.found;
  }
}
