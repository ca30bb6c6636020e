// Which test files can reach PostgreSQL, read from their code rather than kept in a list, so that
// a file added tomorrow is covered: `--without-postgres` (scripts/run-tests.mjs) runs exactly
// these with TEST_DATABASE_URL unset, and each must report its PostgreSQL suites skipped.
//
// A file can reach PostgreSQL when its code (comments aside) reads TEST_DATABASE_URL (itself, or
// by testDatabaseUrl()), names the 'postgres' engine, or uses the engine set of
// test/support/harness.ts (ENGINES, POSTGRES_SKIP, onEachEngine); or when a test module it
// imports, however deep, uses that engine set (the frames that run a suite once per engine:
// test/support/web-app-suite.ts, test/contracts/sql-database.ts). An imported helper that merely
// reads TEST_DATABASE_URL for the engine it is handed (openClickDb, cliDatabase, withEmptyStorage)
// does not count on its own: its caller names the engine, and a caller that only ever hands it
// 'sqlite' never reaches PostgreSQL. The modules that define those names count only through them.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const DEFINERS = [join('test', 'support', 'harness.ts'), join('test', 'support', 'test-database-url.ts')];
const ENGINE_SET = /\b(?:ENGINES|POSTGRES_SKIP|onEachEngine)\b/;
const OWN = /\b(?:TEST_DATABASE_URL|testDatabaseUrl)\b|['"]postgres['"]/;
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The code of a module, comments left out (a comment naming PostgreSQL reaches nothing). */
function codeOf(file) {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

/** The test/ modules `file` imports, however deep (src/ and packages reach PostgreSQL only when a test asks). */
function importsOf(file, seen = new Set()) {
  for (const [, specifier] of codeOf(file).matchAll(RELATIVE_IMPORT)) {
    const path = relative(process.cwd(), resolve(dirname(file), specifier));
    if (!path.startsWith('test/') || seen.has(path) || !existsSync(path)) continue;
    seen.add(path);
    importsOf(path, seen);
  }
  return seen;
}

/** Whether the test file `file` can reach PostgreSQL (above). */
export function reachesPostgres(file) {
  const own = codeOf(file);
  if (OWN.test(own) || ENGINE_SET.test(own)) return true;
  return [...importsOf(file)].some((module) => !DEFINERS.includes(module) && ENGINE_SET.test(codeOf(module)));
}
