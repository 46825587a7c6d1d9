// Sums the JSON reports of every suite that ran (jest's --json output) and prints the totals alone on the last
// line, in the form CI reads: "N passed, N failed" with ", N skipped" when any were skipped. Above it, each test that
// passed only on a retry (the browser journeys retry once, ADR 0056) is named, so a flake is seen and fixed.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const retried = [];
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // A suite that crashed before writing its report counts as one failure, so it cannot pass silently.
    console.error(`no report from ${file}`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const suite of report.testResults) {
    for (const test of suite.assertionResults) {
      if (test.status === 'passed' && (test.invocations ?? 1) > 1) {
        retried.push(`${relative(process.cwd(), suite.name)} › ${test.fullName}`);
      }
    }
  }
  // Suites that failed to run (syntax errors, failing hooks) have no failed tests; count each as a failure.
  failed += report.testResults.filter(
    (suite) => suite.status === 'failed' && suite.assertionResults.every((t) => t.status !== 'failed'),
  ).length;
}
if (retried.length > 0) {
  console.log(`passed only on a retry (flaky: fix them), ${retried.length}:`);
  for (const name of retried) console.log(`  ${name}`);
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
