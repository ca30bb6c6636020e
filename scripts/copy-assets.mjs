// After tsc: the web app's stylesheet and script are files, not modules, so tsc leaves them.
// Only changed files are copied (timestamps kept, so a copy compares equal next time), and the
// build stamp is touched last: bin/linkpix.js compares it with src/ to know whether dist/ is stale.
import { cpSync, statSync, writeFileSync } from 'node:fs';

const changed = (from, to) => {
  const source = statSync(from);
  if (source.isDirectory()) return true;
  try {
    const copy = statSync(to);
    return copy.size !== source.size || copy.mtimeMs !== source.mtimeMs;
  } catch {
    return true;
  }
};

cpSync('src/adapters/web/ui/assets', 'dist/adapters/web/ui/assets', {
  recursive: true,
  preserveTimestamps: true,
  filter: changed,
});

writeFileSync('dist/.built', 'src/ compiled and its assets copied (bin/linkpix.js reads its date)\n');
