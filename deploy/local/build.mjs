// `make build`: compiles every workspace package with esbuild (types are checked by `make typecheck`). Each entry
// its package.json exports for run time (`default`: ./dist/<name>.js from src/<name>.ts) and src/main.ts for
// runnable services becomes dist/<name>.js; dependencies stay external and resolve from node_modules at run time.
// Packages whose folder is absent (an image's build stage copies only the ones it needs) are skipped.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot, workspacePackages } from './workspaces.mjs';

const sourceOf = (target) =>
  typeof target === 'string' ? target : typeof target?.default === 'string' ? target.default : undefined;

for (const { dir, manifest } of workspacePackages(repoRoot)) {
  const exported = Object.values(manifest.exports ?? {})
    .map(sourceOf)
    .filter((target) => target?.startsWith('./dist/') && target.endsWith('.js'))
    .map((target) => `src/${target.slice('./dist/'.length, -'.js'.length)}.ts`);
  const entries = [...new Set([...exported, 'src/main.ts'])]
    .map((entry) => join(repoRoot, dir, entry))
    .filter((entry) => existsSync(entry));
  if (entries.length === 0) continue;
  await build({
    entryPoints: entries,
    outbase: join(repoRoot, dir, 'src'),
    outdir: join(repoRoot, dir, 'dist'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  console.log(`built ${dir}`);
}
