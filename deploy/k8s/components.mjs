// The component charts are the folders under charts/ (each an application chart; not the umbrella `workspace`, not
// a library chart). Helm needs the umbrella's Chart.yaml to list its dependencies and skaffold.yaml to list its
// images, so those two lists stay written out; this script fails when a chart folder is missing from either (or
// from the umbrella's values.schema.json), so a new chart cannot be forgotten. deploy/k8s/validate.sh runs it.
//   node deploy/k8s/components.mjs          check; exit status 1 with one line per omission
//   node deploy/k8s/components.mjs --list   print the component charts, one a line
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const charts = join(root, 'charts');
const read = (path) => readFileSync(join(root, path), 'utf8');

export const componentCharts = readdirSync(charts)
  .filter((name) => name !== 'workspace' && existsSync(join(charts, name, 'Chart.yaml')))
  .filter((name) => !/^type:\s*library\s*$/m.test(read(`charts/${name}/Chart.yaml`)))
  .sort();

if (process.argv.includes('--list')) {
  process.stdout.write(`${componentCharts.join('\n')}\n`);
  process.exit(0);
}

const umbrella = read('charts/workspace/Chart.yaml');
const dependencies = [...umbrella.matchAll(/^\s*- name:\s*(\S+)\s*\n((?:\s{4}\S.*\n?)*)/gm)].map(
  ([, name, body]) => ({ name, body }),
);
const schema = JSON.parse(read('charts/workspace/values.schema.json'));
const skaffold = read('skaffold.yaml');

const problems = [];
for (const chart of componentCharts) {
  const dependency = dependencies.find(({ name }) => name === chart);
  if (!dependency) problems.push(`charts/workspace/Chart.yaml: no dependency on charts/${chart}`);
  else {
    if (!dependency.body.includes(`repository: file://../${chart}`))
      problems.push(`charts/workspace/Chart.yaml: ${chart} is not taken from file://../${chart}`);
    if (!dependency.body.includes(`condition: ${chart}.enabled`))
      problems.push(`charts/workspace/Chart.yaml: ${chart} has no condition ${chart}.enabled`);
  }
  if (!schema.properties?.[chart]) problems.push(`charts/workspace/values.schema.json: no property ${chart}`);
  if (!skaffold.includes(`- image: workspace/${chart}\n`))
    problems.push(`skaffold.yaml: no artifact for the image workspace/${chart}`);
  for (const key of ['registry', 'repository', 'tag'])
    if (!skaffold.includes(`${chart}.image.${key}: `))
      problems.push(`skaffold.yaml: no setValueTemplates ${chart}.image.${key}`);
}
for (const { name } of dependencies)
  if (!componentCharts.includes(name))
    problems.push(`charts/workspace/Chart.yaml: ${name} has no chart folder`);

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `charts/workspace and skaffold.yaml list every component chart: ${componentCharts.join(', ')}\n`,
);
