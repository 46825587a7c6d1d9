// M5 (ADR 0033): the serving pods hold the runtime role only. Reads rendered manifests (`helm template` output) and
// fails when a Deployment, or a ConfigMap it loads, carries the schema owner's URL (DATABASE_MIGRATION_URL) or
// MIGRATE_AT_START, or when a migrate Job does not take the owner's URL from a Secret key. deploy/k8s/validate.sh
// runs it on every render.
//   node deploy/k8s/runtime-role-only.mjs <rendered.yaml>...   exit status 1 with one line per problem
import { readFileSync } from 'node:fs';

const FORBIDDEN = ['DATABASE_MIGRATION_URL', 'MIGRATE_AT_START'];
const problems = [];

for (const file of process.argv.slice(2)) {
  const documents = readFileSync(file, 'utf8')
    .split(/^---\s*$/m)
    .map((text) => ({
      text,
      kind: /^kind:\s*(\S+)/m.exec(text)?.[1],
      name: /^metadata:\s*\n(?:\s+.*\n)*?\s{2}name:\s*(\S+)/m.exec(text)?.[1],
    }))
    .filter((document) => document.kind);
  const migrateJobs = documents.filter(
    (document) => document.kind === 'Job' && /app\.kubernetes\.io\/component: migrate/.test(document.text),
  );
  for (const document of documents) {
    const where = `${file}: ${document.kind} ${document.name}`;
    if (document.kind === 'Deployment') {
      for (const variable of FORBIDDEN) {
        if (new RegExp(`-\\s+name:\\s*${variable}\\b`).test(document.text)) {
          problems.push(`${where} gets ${variable} (only the migrate Job may)`);
        }
      }
    }
    if (document.kind === 'ConfigMap') {
      for (const variable of FORBIDDEN) {
        if (new RegExp(`^\\s+${variable}:`, 'm').test(document.text)) {
          problems.push(`${where} sets ${variable} (the pods load it)`);
        }
      }
    }
  }
  for (const job of migrateJobs) {
    if (!/-\s+name:\s*DATABASE_MIGRATION_URL\s*\n\s+valueFrom:\s*\n\s+secretKeyRef:/.test(job.text)) {
      problems.push(`${file}: Job ${job.name} does not take DATABASE_MIGRATION_URL from a Secret key`);
    }
  }
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
