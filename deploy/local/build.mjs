// `make build`: compiles every workspace package with esbuild (types are checked by `make typecheck`). Each
// entry (src/index.ts for libraries, src/main.ts for runnable services, src/domain/index.ts for a package's
// browser-safe `./domain` export) becomes dist/<name>.js; dependencies stay external and resolve from node_modules
// at run time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../..', import.meta.url).pathname;
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const expand = (pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(root, pattern.slice(0, -2))).map((name) => join(pattern.slice(0, -2), name))
    : [pattern];
const packages = workspaces.flatMap(expand).filter((dir) => existsSync(join(root, dir, 'package.json')));
for (const dir of packages) {
  const entries = ['src/index.ts', 'src/main.ts', 'src/testing/index.ts', 'src/domain/index.ts']
    .map((entry) => join(root, dir, entry))
    .filter((entry) => existsSync(entry));
  if (entries.length === 0) continue;
  await build({
    entryPoints: entries,
    outbase: join(root, dir, 'src'),
    outdir: join(root, dir, 'dist'),
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
