// The offline verifier (docs/audit.md "Verifying offline"): checks an export (GET /v1/export, NDJSON) or audit.v1
// records (kcat -f '%h\t%s\n', or {"type","data"} lines) against each tenant's hash chain and its checkpoints.
//
//   node --import tsx services/audit/bin/verify-audit.ts --public-key audit-checkpoint.pub.pem export.ndjson
//   kcat -C -b <broker> -t audit.v1 -e -f '%h\t%s\n' | node --import tsx services/audit/bin/verify-audit.ts --public-key key.pem -
//
// Prints one line per tenant (ok, or the first broken link: seq, reason, detail); exits 1 when any chain is broken,
// 2 on a usage or input error.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseAuditLine, verifyAuditLines, type AuditLine } from '../src/chain/offline.js';

async function main(argv: string[]): Promise<number> {
  const keyAt = argv.indexOf('--public-key');
  const keyFile = keyAt >= 0 ? argv[keyAt + 1] : undefined;
  const input = argv.filter((_, i) => i !== keyAt && i !== keyAt + 1)[0];
  if (!keyFile || !input) {
    process.stderr.write('usage: verify-audit --public-key <public key PEM file> <export.ndjson | ->\n');
    return 2;
  }
  const publicKeyPem = readFileSync(keyFile, 'utf8');
  const stream = input === '-' ? process.stdin : (await import('node:fs')).createReadStream(input);
  const lines: AuditLine[] = [];
  let number = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
    number++;
    try {
      const line = parseAuditLine(text);
      if (line) lines.push(line);
    } catch (error) {
      process.stderr.write(`line ${number}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const reports = verifyAuditLines(lines, publicKeyPem);
  if (reports.length === 0) {
    process.stderr.write('no audit entries in the input\n');
    return 2;
  }
  let broken = false;
  for (const report of reports) {
    const checkpoint = report.lastCheckpoint
      ? `, last checkpoint seq ${report.lastCheckpoint.seq} (${report.lastCheckpoint.signedAt})`
      : ', no checkpoint';
    if (report.firstBreak) {
      broken = true;
      process.stdout.write(
        `${report.tenantId}: BROKEN at seq ${report.firstBreak.seq}: ${report.firstBreak.reason}: ${report.firstBreak.detail}\n`,
      );
    } else {
      process.stdout.write(
        `${report.tenantId}: ok, ${report.entries} entries, head seq ${report.head.seq} ${report.head.hash}${checkpoint}\n`,
      );
    }
  }
  return broken ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
