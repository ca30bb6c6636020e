// `npm run sdk`: regenerates the SDK's types (packages/sdk/src/openapi.ts) from the OpenAPI
// document of the app built here, in-process, on a throwaway SQLite database. docs/design/sdk.md.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/app/config.ts';
import { buildServer } from '../src/app/server.ts';
import { ROOT } from '../test/support/processes.ts';
import { SDK_TYPES_FILE, sdkTypes, servedDocument } from './sdk-types.ts';

const tmp = mkdtempSync(join(tmpdir(), 'linkpix-sdk-'));
try {
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(tmp, 'sdk.db')}`,
    LOG_LEVEL: 'silent',
    TITLE_FETCH: 'false',
    SNAPSHOT_PATH: join(tmp, 'redirects.snapshot'),
  });
  const server = await buildServer(config);
  let text: string;
  try {
    text = await sdkTypes(await servedDocument(server.app));
  } finally {
    await server.close();
  }
  const file = join(ROOT, SDK_TYPES_FILE);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  writeFileSync(file, text);
  console.log(before === text ? `${SDK_TYPES_FILE} is up to date` : `${SDK_TYPES_FILE} written`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
// The built app's worker pools outlive its close by a while; a one-shot script is done here.
process.exit(0);
