// Checks that every proof docs/spec-coverage.md cites still exists: for `<path> › <describe> › <test name>`, the
// test file, each describe title and the test's name (a name built from a template, `%s` or `${...}`, is checked
// up to the template); for `<doc>.md › <heading>`, the document and its headings. Run by `make lint`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

const failures = [];
let checked = 0;
for (const [index, line] of readFileSync(coverage, 'utf8').split('\n').entries()) {
  if (!/^\| (WS|CIS|DRV)-\d+ /.test(line)) continue;
  const proof = line.split(' | ').slice(4).join(' | ').replace(/ \|$/, '').replaceAll('\\|', '|');
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

if (failures.length > 0) {
  console.error(failures.join('\n'));
  console.error(`${failures.length} of ${checked} proofs in ${relative(root, coverage)} point at nothing`);
  process.exit(1);
}
console.log(`spec-coverage: ${checked} proofs point at existing tests and headings`);
