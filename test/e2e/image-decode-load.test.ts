// Issue 48, finding 4, on the compiled server: an uploaded image is decoded in an image thread,
// never on the event loop. A 1024 px RGBA PNG at 16 bits is an 8 KB file of 8 MB of pixels; it
// stalled /health for half a second per upload when pngjs decoded it on the loop. Now its header
// refuses it, and what the bound lets through (a 16-bit PNG of 724 px, an 8-bit one of 1024 px,
// an SVG of thirty thousand nested groups) is decoded or sanitised in the thread, while /health
// keeps its p99 within the bound of test/e2e/event-loop-under-load.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request } from 'undici';
import { healthWhile } from '../support/loop-probe.ts';
import { cliAccountKey, cliDatabase, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { ENGINES } from '../support/harness.ts';
import { multipartBody } from '../support/multipart.ts';
import { deepPng } from '../support/qr-logos.ts';

const HEALTH_P99_MS = 100;
/** Uploaders at once, each to a link of its own, and the files each sends in turn. */
const UPLOADERS = 8;
const ROUNDS = 2;

const FILES: ReadonlyArray<{ name: string; bytes: Buffer; status: number }> = [
  { name: '1024 px RGBA, 16 bits', bytes: deepPng(1024, 16), status: 422 },
  { name: '724 px RGBA, 16 bits', bytes: deepPng(724, 16), status: 200 },
  { name: '1024 px RGBA, 8 bits', bytes: deepPng(1024, 8), status: 200 },
  {
    name: 'an SVG of nested groups',
    bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(33_000)}`),
    status: 200,
  },
];

async function putLogo(base: string, key: string, id: number, bytes: Buffer): Promise<number> {
  const { body, headers } = await multipartBody([{ field: 'logo', bytes, name: 'logo' }], {}, 'PUT');
  const res = await request(`${base}/api/v1/links/${id}/qr-logo`, {
    method: 'PUT',
    headers: { ...headers, authorization: `Bearer ${key}` },
    body: Buffer.from(body),
  });
  await res.body.dump();
  return res.statusCode;
}

for (const { name: engine } of ENGINES) {
  describe(
    `uploaded images decoded off the event loop [${engine}]`,
    { skip: engine === 'postgres' && !process.env.TEST_DATABASE_URL },
    () => {
      let server: ServerProcess;
      let cleanup: () => Promise<void>;

      before(async () => {
        const db = await cliDatabase(engine);
        cleanup = db.cleanup;
        server = await startServerProcess(db.env);
      });
      after(async () => {
        if (server.child.exitCode === null) {
          server.child.kill('SIGTERM');
          await once(server.child, 'exit');
        }
        await cleanup();
      });

      test(
        `/health within ${HEALTH_P99_MS} ms p99 while ${UPLOADERS} uploaders send deep PNGs and large SVGs as QR logos`,
        { timeout: 300_000 },
        async () => {
          for (const file of FILES) assert.ok(file.bytes.length <= 100 * 1024, `${file.name} is within the file limit`);
          const key = await cliAccountKey(server.env, `images-${engine}@example.com`);
          const ids: number[] = [];
          for (let i = 0; i < UPLOADERS; i++) {
            const res = await request(`${server.base}/api/v1/links`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
              body: `url=https%3A%2F%2Fexample.com%2Flogo%2F${i}&alias=logo-load-${i}`,
            });
            const created = (await res.body.json()) as { data: { id: number } };
            assert.equal(res.statusCode, 201);
            ids.push(created.data.id);
          }
          const uploader = (id: number) => async () => {
            const statuses: number[] = [];
            for (let round = 0; round < ROUNDS; round++)
              for (const file of FILES) statuses.push(await putLogo(server.base, key, id, file.bytes));
            return statuses;
          };
          const { latency, results } = await healthWhile(server.base, ids.map(uploader));
          console.log(`[${engine}] /health while uploading logos: ${JSON.stringify(latency)}`);

          const expected = Array.from({ length: ROUNDS }, () => FILES.map((f) => f.status)).flat();
          for (const statuses of results) assert.deepEqual(statuses, expected, server.output().slice(-2000));
          assert.ok(latency.samples >= 100, `too few samples to read a p99: ${latency.samples}`);
          assert.ok(
            latency.p99 <= HEALTH_P99_MS,
            `/health p99 ${latency.p99.toFixed(1)} ms while uploading (max ${latency.max.toFixed(1)} ms)`,
          );
        },
      );

      test('SIGTERM with an image thread started exits 0', async () => {
        const exited = once(server.child, 'exit');
        server.child.kill('SIGTERM');
        assert.equal((await exited)[0], 0, server.output().slice(-2000));
      });
    },
  );
}
