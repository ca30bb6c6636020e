// The SDK's committed types (packages/sdk/src/openapi.ts) are what the app's OpenAPI document
// generates now: a route schema changed without `npm run sdk` fails here (docs/design/sdk.md).
// The document is the same on both engines, so one is read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../../support/harness.ts';
import { ROOT } from '../../support/processes.ts';
import { SDK_TYPES_FILE, sdkTypes, servedDocument } from '../../../scripts/sdk-types.ts';

let h: Harness;
before(async () => {
  h = await startHarness('sqlite');
});
after(() => h.close());

test('the committed SDK types are what the served OpenAPI document generates', async () => {
  const generated = await sdkTypes(await servedDocument(h.server.app));
  const committed = readFileSync(join(ROOT, SDK_TYPES_FILE), 'utf8');
  if (generated === committed) return;
  const lines = [generated.split('\n'), committed.split('\n')] as const;
  const at = lines[0].findIndex((line, i) => line !== lines[1][i]);
  assert.fail(
    `${SDK_TYPES_FILE} differs from what the OpenAPI document generates: run \`npm run sdk\` and commit it.\n` +
      `First difference at line ${at + 1}:\n  generated: ${lines[0][at]}\n  committed: ${lines[1][at]}`,
  );
});
