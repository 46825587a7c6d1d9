// Helps the image builds (services/Dockerfile, bff/Dockerfile) name no package by hand: both commands derive the
// packages from the workspaces (deploy/local/workspaces.mjs).
//   node deploy/docker/stage.mjs manifests <dest>        the root package.json and lock and every workspace's
//                                                        package.json, at their paths under <dest> (the lock
//                                                        describes all of them, so npm install needs them all)
//   node deploy/docker/stage.mjs dist <package dir> <dest>  the dist/ of that package and of every workspace
//                                                        package it depends on (transitively), under <dest>
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot, workspacePackages } from '../local/workspaces.mjs';

const [command, ...args] = process.argv.slice(2);
const packages = workspacePackages(repoRoot);
const copy = (path, dest) => {
  mkdirSync(dirname(join(dest, path)), { recursive: true });
  cpSync(join(repoRoot, path), join(dest, path), { recursive: true });
};

if (command === 'manifests' && args.length === 1) {
  const [dest] = args;
  for (const path of [
    'package.json',
    'package-lock.json',
    ...packages.map(({ dir }) => join(dir, 'package.json')),
  ])
    copy(path, dest);
} else if (command === 'dist' && args.length === 2) {
  const [start, dest] = args;
  const byName = new Map(packages.map((entry) => [entry.manifest.name, entry]));
  const wanted = new Set();
  const visit = (dir) => {
    if (wanted.has(dir)) return;
    const entry = packages.find((candidate) => candidate.dir === dir);
    if (!entry) throw new Error(`${dir} is not a workspace package`);
    wanted.add(dir);
    for (const name of Object.keys(entry.manifest.dependencies ?? {}))
      if (byName.has(name)) visit(byName.get(name).dir);
  };
  visit(start.replace(/\/$/, ''));
  for (const dir of wanted) {
    if (!existsSync(join(repoRoot, dir, 'dist')))
      throw new Error(`${dir}/dist is missing: run deploy/local/build.mjs`);
    copy(join(dir, 'dist'), dest);
  }
} else {
  console.error('usage: stage.mjs manifests <dest> | stage.mjs dist <package dir> <dest>');
  process.exit(2);
}
