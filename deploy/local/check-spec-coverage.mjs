// Checks that every proof docs/spec-coverage.md cites still exists: for `<path> › <describe> › <test name>`, the
// test file, each describe title and the test's name (a name built from a template, `%s` or `${...}`, is checked
// up to the template); for `<doc>.md › <heading>`, the document and its headings. And that the gradings follow the
// legend: a row that does not apply is `not done yet` with `does not apply: <document> (<why>)`, a `proved` row
// never says `does not apply`, and a row whose checklist verify column says "browser" is `proved` only when it
// cites a browser journey (web/test/*.int.test.ts, path and test name). The checklists are read from SPEC_DIR, or
// ../shared/spec beside the repository (or beside its main worktree); without them the browser rule is skipped,
// with a notice. Run by `make lint`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const coverage = join(root, 'docs', 'spec-coverage.md');
const SEP = ' › ';
// A cited path starts a reference; the reference runs until the next cited path.
const CITED = /(?<![\w/.-])((?:services|bff|web|deploy|proto|charts|docs)\/[\w./-]+\.(?:test\.tsx?|md)) › /g;

const sources = new Map();
/** The file's text with the escapes of string literals undone, so a title reads as the doc cites it. */
function source(path) {
  if (!sources.has(path)) {
    const full = join(root, path);
    const text = existsSync(full) ? readFileSync(full, 'utf8') : undefined;
    sources.set(path, text?.replace(/\\(['"`\\])/g, '$1'));
  }
  return sources.get(path);
}

const headings = (text) =>
  text
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, '').replaceAll('`', '').trim());

/** The candidate ends of a cited name: the whole rest, or the rest cut where a note or the next proof begins. */
function candidates(rest) {
  const cuts = [rest, rest.replace(/\)+$/, '')];
  for (const match of rest.matchAll(/; | \(|\)|, /g)) cuts.push(rest.slice(0, match.index));
  return cuts.map((cut) => cut.trim()).filter(Boolean);
}

const PLACEHOLDER = /%[sdifjopO#]|\$\{[^}]*\}/;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const templates = new Map();
/** The file's titles built from templates (`%s`, `${...}`), as patterns a cited name must begin with. */
function templatePatterns(path, text) {
  if (!templates.has(path)) {
    const literals = text.match(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g) ?? [];
    const patterns = literals
      .map((literal) => literal.slice(1, -1))
      .filter((literal) => PLACEHOLDER.test(literal))
      .map((literal) => literal.split(new RegExp(PLACEHOLDER, 'g')))
      .filter((parts) => parts.join('').trim().length >= 8)
      .map((parts) => new RegExp(`^${parts.map(escape).join('.+?')}`));
    templates.set(path, patterns);
  }
  return templates.get(path);
}

const found = (path, text, name) =>
  candidates(name).some((cut) => text.includes(cut)) ||
  templatePatterns(path, text).some((pattern) => pattern.test(name));

/**
 * `<describe> › ... › <name>`: the most describe titles that are in the file, then a name (a note after the
 * name may itself contain ` › `, so fewer describes are tried before giving up).
 */
function checkTest(path, body) {
  const text = source(path);
  if (text === undefined) return `${path}: no such file`;
  const segments = body.split(SEP);
  for (let describes = segments.length - 1; describes >= 0; describes -= 1) {
    const titles = segments.slice(0, describes);
    if (!titles.every((title) => text.includes(title))) continue;
    if (found(path, text, segments.slice(describes).join(SEP))) return undefined;
  }
  const missing = segments.slice(0, -1).find((title) => !text.includes(title));
  return missing ? `${path}: no describe titled "${missing}"` : `${path}: no test named "${segments.at(-1)}"`;
}

/** `<heading> › <heading or bold term>`, each followed perhaps by a note in parentheses. */
function checkDoc(path, body) {
  const text = source(path);
  if (text === undefined) return `${path}: no such file`;
  const titles = headings(text);
  const terms = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1].trim());
  for (const segment of body.split(SEP)) {
    const cuts = [
      ...candidates(segment),
      ...[...segment.matchAll(/: /g)].map((m) => segment.slice(0, m.index)),
    ];
    const named = cuts.some(
      (cut) => titles.some((title) => title === cut || title.startsWith(`${cut} (`)) || terms.includes(cut),
    );
    if (!named) return `${path}: no heading "${segment}"`;
  }
  return undefined;
}

/** Where the checklists are: SPEC_DIR, else ../shared/spec beside this repository or beside its main worktree. */
function specDir() {
  const candidates = [process.env.SPEC_DIR, join(root, '..', 'shared', 'spec')];
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    candidates.push(join(dirname(common), '..', 'shared', 'spec'));
  } catch {
    // Not a git checkout: the other places only.
  }
  return candidates.find((dir) => dir && existsSync(join(dir, 'checklist-cis.md')));
}

/** The ids whose checklist verify column (the last) asks for a browser check. */
function browserRows(dir) {
  const ids = new Set();
  for (const name of ['checklist-workspace.md', 'checklist-cis.md', 'checklist-drive.md']) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const id = line.match(/^\| ((?:WS|CIS|DRV)-\d+) \|/)?.[1];
      if (id && /\bbrowser\b/i.test(line.split(' | ').at(-1) ?? '')) ids.add(id);
    }
  }
  return ids;
}

const spec = specDir();
const browser = spec ? browserRows(spec) : undefined;
const JOURNEY = /(?<![\w/.-])web\/test\/[\w./-]+\.int\.test\.tsx? › /;
const DOES_NOT_APPLY = 'does not apply: ';

const failures = [];
let checked = 0;
for (const [index, line] of readFileSync(coverage, 'utf8').split('\n').entries()) {
  if (!/^\| (WS|CIS|DRV)-\d+ /.test(line)) continue;
  const proof = line.split(' | ').slice(4).join(' | ').replace(/ \|$/, '').replaceAll('\\|', '|');
  const rowId = line.split(' | ')[0].slice(2);
  const status = line.split(' | ')[3];
  const at = `docs/spec-coverage.md:${index + 1} ${rowId}`;
  if (proof.startsWith(DOES_NOT_APPLY) && status !== 'not done yet')
    failures.push(`${at}: a row that does not apply is graded 'not done yet', not '${status}'`);
  if (status === 'not done yet' && proof.includes('does not apply') && !proof.startsWith(DOES_NOT_APPLY))
    failures.push(`${at}: a row that does not apply says so first: 'does not apply: <document> (<why>)'`);
  if (status === 'proved' && proof.includes('does not apply'))
    failures.push(
      `${at}: 'proved' but part of it does not apply: grade it 'partly' (missing: ... does not apply)`,
    );
  if (browser?.has(rowId) && status === 'proved' && !JOURNEY.test(proof))
    failures.push(
      `${at}: a browser row is 'proved' only by a browser journey; cite its web/test/*.int.test.ts test`,
    );
  const starts = [...proof.matchAll(CITED)];
  for (const [n, match] of starts.entries()) {
    const end = starts[n + 1]?.index ?? proof.length;
    const path = match[1];
    const id = line.split(' | ')[0].slice(2);
    // `a › b › c; › d › e` cites a second test of the same file.
    for (const body of proof.slice(match.index + match[0].length, end).split('; › ')) {
      checked += 1;
      const cited = body.replace(/;\s*$/, '');
      const problem = path.endsWith('.md') ? checkDoc(path, cited) : checkTest(path, cited);
      if (problem) failures.push(`docs/spec-coverage.md:${index + 1} ${id}: ${problem}`);
    }
  }
}

if (!browser)
  console.log('spec-coverage: the checklists were not found (set SPEC_DIR): browser rows not checked');
if (failures.length > 0) {
  console.error(failures.join('\n'));
  console.error(`${failures.length} problems in ${relative(root, coverage)} (${checked} proofs checked)`);
  process.exit(1);
}
console.log(
  `spec-coverage: ${checked} proofs point at existing tests and headings; gradings consistent` +
    (browser ? ` (${browser.size} browser rows, checklists in ${relative(root, resolve(spec)) || '.'})` : ''),
);
