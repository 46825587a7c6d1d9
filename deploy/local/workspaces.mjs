// The workspace packages, read from the root package.json's `workspaces` and each package's own package.json: the
// one list of packages that jest, Vite, the esbuild build and the embedded runner derive theirs from, so that a new
// package (a new service folder) is found without an edit here or there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Every workspace package: its folder (relative to the repository root) and its package.json. */
export function workspacePackages(root = repoRoot) {
  const patterns = readJson(join(root, 'package.json')).workspaces;
  return patterns
    .flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(join(root, pattern.slice(0, -2)))
            .sort()
            .map((name) => join(pattern.slice(0, -2), name))
        : [pattern],
    )
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => ({ dir, manifest: readJson(join(root, dir, 'package.json')) }));
}

/**
 * Every entry every workspace package exports (`@workspace/cis`, `@workspace/cis/domain`, `@workspace/kit/testing`)
 * with the TypeScript source it stands for: the `development` condition of the entry, or `types` where it has none.
 * `source` is relative to the repository root.
 */
export function sourceEntries(root = repoRoot) {
  return workspacePackages(root).flatMap(({ dir, manifest }) =>
    Object.entries(manifest.exports ?? {}).flatMap(([entry, target]) => {
      const source = typeof target === 'string' ? target : (target.development ?? target.types);
      return source ? [{ specifier: manifest.name + entry.slice(1), source: join(dir, source) }] : [];
    }),
  );
}
