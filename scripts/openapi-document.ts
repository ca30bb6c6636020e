// The OpenAPI document the app serves at /api/openapi.json, without a port: the app is built
// in-process on a throwaway SQLite database and asked with `inject`. `node --import tsx
// scripts/openapi-document.ts [file]` prints it (or writes it to file); scripts/lint-openapi.ts
// lints it. docs/design/openapi.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OpenAPI3 } from 'openapi-typescript';
import { loadConfig } from '../src/app/config.ts';
import { buildServer } from '../src/app/server.ts';
import { servedDocument } from './sdk-types.ts';

export async function generatedDocument(): Promise<OpenAPI3> {
  const tmp = mkdtempSync(join(tmpdir(), 'linkpix-openapi-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(tmp, 'openapi.db')}`,
      LOG_LEVEL: 'silent',
      TITLE_FETCH: 'false',
      SNAPSHOT_PATH: join(tmp, 'redirects.snapshot'),
    });
    const server = await buildServer(config);
    try {
      return await servedDocument(server.app);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = `${JSON.stringify(await generatedDocument(), null, 2)}\n`;
  const file = process.argv[2];
  if (file) writeFileSync(file, text);
  else process.stdout.write(text);
  // The built app's worker pools outlive its close by a while; a one-shot script is done here.
  process.exit(0);
}
