// What `npm run build` would do, run by the `linkpix` command in a checkout when a source is
// newer than dist/'s build stamp (scripts/copy-assets.mjs writes it last), so that the command
// and `npm start` run the same code. Reading every source's date is cheap next to tsc's own
// start, which a fresh dist/ skips.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(`${path}/${name}`));
  return latest;
}

function builtAt() {
  try {
    return statSync(`${ROOT}dist/.built`).mtimeMs;
  } catch {
    return -Infinity;
  }
}

function typescript() {
  try {
    return createRequire(`${ROOT}package.json`).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

// The packages are built by the same `tsc -b` (tsconfig.build.json's references).
const PACKAGES = ['packages/sdk', 'packages/cli'];

export function buildIfStale() {
  const sources = Math.max(
    newest(`${ROOT}src`),
    newest(`${ROOT}tsconfig.json`),
    newest(`${ROOT}tsconfig.build.json`),
    ...PACKAGES.flatMap((p) => [newest(`${ROOT}${p}/src`), newest(`${ROOT}${p}/tsconfig.json`)]),
  );
  if (sources <= builtAt()) return;
  const tsc = typescript();
  if (tsc === undefined) {
    // Installed without the dev dependencies: run what was built, and say so.
    console.error(
      'linkpix: dist/ is older than src/ and TypeScript is not installed; run `npm install && npm run build`.',
    );
    return;
  }
  console.error('linkpix: src/ changed since the last build; building dist/ first (npm run build).');
  // The build's own output goes to standard error: the command's standard output is its answer.
  const options = { cwd: ROOT, stdio: ['ignore', 2, 2] };
  const built = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], options);
  const copied = built.status === 0 ? spawnSync(process.execPath, ['scripts/copy-assets.mjs'], options) : built;
  if (copied.status !== 0) {
    console.error('linkpix: the build failed (above).');
    process.exit(1);
  }
}
