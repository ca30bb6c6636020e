// A node:test reporter for `--without-postgres` (scripts/run-tests.mjs): one JSON line per test
// file, with how many of its tests passed and failed and how many of its tests and suites were
// skipped. The runner's entry declares a suite per file, named by its path (runShard), so a file
// is a suite at nesting 0 and its tests are reported before it ends. A suite that fails counts
// through its tests (a failed hook cancels them), but for a file that failed with none (its
// import threw).
export default async function* skipsReporter(source) {
  let counts = { passed: 0, failed: 0, skipped: 0 };
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (data.nesting === 0) {
      if (type === 'test:fail' && counts.failed === 0) counts.failed = 1;
      yield `${JSON.stringify({ file: data.name, ...counts })}\n`;
      counts = { passed: 0, failed: 0, skipped: 0 };
    } else if (data.skip !== undefined && data.skip !== false) counts.skipped += 1;
    else if (data.details?.type === 'suite') continue;
    else if (type === 'test:fail') counts.failed += 1;
    else counts.passed += 1;
  }
}
