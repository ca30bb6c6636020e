// Issue 30's target: no request holds the event loop. The compiled server on each engine answers
// GET /health within 100 ms at the 99th percentile while heavy requests run, sampled throughout
// (test/support/loop-probe.ts): three 10 MB imports and twenty 2048 px PNG QR codes at once.
// Issue 30 measured with 45 MB files; a file holds the loop by what is done with a piece of it
// (a batch of at most 25 rows or 8192 characters), not by its size: 10 MB is still thousands of
// batches each, all three imports at once from the first sample, and far beyond anything parsed
// whole in one turn, which would take seconds, not 100 ms (docs/design/tests.md). A bigger file
// only makes the load last longer, not heavier.
// The files are written once, for both engines.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'undici';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { healthWhile } from '../support/loop-probe.ts';
import { cliAccountKey, cliDatabase, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { ENGINES } from '../support/harness.ts';
import { tuningEnv } from '../support/test-tuning.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const MB = 1024 * 1024;
const FILE_BYTES = 10 * MB;
/** The bound of the issue, with no allowance: a loaded machine only makes the tail longer. */
const HEALTH_P99_MS = 100;
/** The most resident memory one import of a 50 MB file may add (the bound). */
const EXTRA_RSS_MB = 300;
const BIG_FILE_BYTES = 50 * MB;
const QR_CODES = 20;

/** Writes `bytes` worth of `piece(i)` (then `tail`) to a file, in chunks: the test holds no 45 MB string. */
async function writeFile(
  path: string,
  head: string,
  piece: (i: number) => string,
  tail: string,
  bytes: number,
): Promise<void> {
  const out = createWriteStream(path);
  let written = 0;
  out.write(head);
  for (let i = 0; written < bytes; i++) {
    const chunk = piece(i);
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end(tail);
  await once(out, 'finish');
}

/** linkpix's export of a few hundred thousand short links (the report's first file), read as a dry run: parsed and checked whole, written not at all (writing them would take minutes of CI). */
function manyEntries(path: string, tag: string, bytes = FILE_BYTES) {
  let first = true;
  return writeFile(
    path,
    '{"format":"linkpix.links","version":1,"links":[',
    (i) => {
      const entry = `${first ? '' : ','}{"alias":"${tag}-${i}","url":"https://example.com/${tag}/${i}?utm_source=news","title":"Entry ${i}","disabled":0,"privacy":0}`;
      first = false;
      return entry;
    },
    ']}',
    bytes,
  );
}

/** A CSV of one line, FILE_BYTES long (the report's second file). */
const oneLine = (path: string) => writeFile(path, 'url', () => 'x'.repeat(64 * 1024), '\n', FILE_BYTES);

/** A CSV of long links (2 KB each), written for real: about five thousand rows through the server's writes. */
const longRows = (path: string, tag: string) =>
  writeFile(
    path,
    'url,alias,title\n',
    (i) => `https://example.com/${tag}/${i}?q=${'a'.repeat(2000)},${tag}-${i},Long ${i}\n`,
    '',
    FILE_BYTES,
  );

/** POST /api/v1/links/import with the file streamed from disk (the test holds none of it). */
async function upload(
  base: string,
  key: string,
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: Json }> {
  const boundary = `----linkpix${Math.random().toString(16).slice(2)}`;
  let head = '';
  for (const [k, v] of Object.entries(fields))
    head += `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="links"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  async function* body() {
    yield Buffer.from(head);
    yield* createReadStream(path);
    yield Buffer.from(tail);
  }
  const res = await request(`${base}/api/v1/links/import`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(Buffer.byteLength(head) + statSync(path).size + Buffer.byteLength(tail)),
    },
    body: Readable.from(body()),
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  return { status: res.statusCode, body: await res.body.json() };
}

/** Twenty different links, so that no PNG is drawn once for all from the cache. */
async function qrLinks(base: string, key: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < QR_CODES; i++) {
    const res = await request(`${base}/api/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `url=https%3A%2F%2Fexample.com%2Fqr%2F${i}&alias=qr-load-${i}`,
    });
    const body = (await res.body.json()) as Json;
    assert.equal(res.statusCode, 201, JSON.stringify(body));
    ids.push(body.data.id);
  }
  return ids;
}

async function qrPng(base: string, key: string, id: number): Promise<{ status: number; body: Json }> {
  const res = await request(`${base}/api/v1/links/${id}/qr?format=png&size=2048`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, body: { width: bytes.length >= 20 ? bytes.readUInt32BE(16) : 0 } };
}

/** Resident memory of a process (VmRSS) and its peak so far (VmHWM), in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

let dir: string;
const files = () => ({
  big: join(dir, 'big.json'),
  entries: join(dir, 'entries.json'),
  line: join(dir, 'line.csv'),
  long: join(dir, 'long.csv'),
});
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkpix-e2e-load-'));
  const { big, entries, line, long } = files();
  await manyEntries(big, 'big', BIG_FILE_BYTES);
  await manyEntries(entries, 'ent');
  await oneLine(line);
  await longRows(long, 'long');
});
after(() => rmSync(dir, { recursive: true, force: true }));

for (const { name: engine } of ENGINES) {
  describe(
    `the event loop under heavy requests [${engine}]`,
    { skip: engine === 'postgres' && !process.env.TEST_DATABASE_URL },
    () => {
      let server: ServerProcess;
      let cleanup: () => Promise<void>;

      before(async () => {
        const db = await cliDatabase(engine);
        cleanup = db.cleanup;
        server = await startServerProcess({
          ...db.env,
          ...tuningEnv({ IMPORT_MAX_BYTES: 55 * MB, IMPORT_CONCURRENCY: 3 }),
        });
      });
      after(async () => {
        if (server.child.exitCode === null) {
          server.child.kill('SIGTERM');
          await once(server.child, 'exit');
        }
        await cleanup();
      });

      // First, on a fresh server: its peak resident memory (VmHWM) is this import's alone.
      test(
        `one import of a 50 MB file adds under ${EXTRA_RSS_MB} MB of resident memory`,
        { timeout: 300_000 },
        async () => {
          const file = files().big;
          const key = await cliAccountKey(server.env, 'big@example.com');
          const before = memoryOf(server.child.pid!);
          const answer = await upload(server.base, key, file, { dry_run: '1' });
          const after = memoryOf(server.child.pid!);
          const extra = after.peak - before.rss;
          console.log(
            `[${engine}] one 50 MB import: resident ${before.rss.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB`,
          );
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          assert.ok(answer.body.data.counts.created > 300_000, JSON.stringify(answer.body.data.counts));
          assert.ok(extra < EXTRA_RSS_MB, `the import added ${extra.toFixed(0)} MB of resident memory`);
        },
      );

      test(
        `/health within ${HEALTH_P99_MS} ms p99 while three ${FILE_BYTES / MB} MB imports and ${QR_CODES} PNG QR codes of 2048 px run`,
        { timeout: 600_000 },
        async () => {
          const { entries: entriesFile, line: lineFile, long: longFile } = files();
          const keys = await Promise.all(
            ['a', 'b', 'c'].map((who) => cliAccountKey(server.env, `load-${who}@example.com`)),
          );
          const qrIds = await qrLinks(server.base, keys[0]!);
          const before = memoryOf(server.child.pid!);

          const { latency, results } = await healthWhile(server.base, [
            () => upload(server.base, keys[0]!, entriesFile, { dry_run: '1' }),
            () => upload(server.base, keys[1]!, lineFile, { dry_run: '1', format: 'csv' }),
            () => upload(server.base, keys[2]!, longFile, {}),
            ...qrIds.map((id) => () => qrPng(server.base, keys[0]!, id)),
          ]);
          const after = memoryOf(server.child.pid!);
          console.log(
            `[${engine}] /health while importing: ${JSON.stringify(latency)}; resident ${before.rss.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB`,
          );

          const [entries, line, long, ...codes] = results;
          assert.equal(entries!.status, 200, JSON.stringify(entries!.body));
          assert.ok(entries!.body.data.counts.created > 55_000, JSON.stringify(entries!.body.data.counts));
          assert.deepEqual(entries!.body.data.rows, [], 'nothing to list: every row would be created');
          assert.deepEqual(
            codes.map((c) => [c.status, c.body.width]),
            Array(QR_CODES).fill([200, 2048]),
          );
          assert.equal(line!.status, 200);
          assert.equal(line!.body.data.counts.error, 1);
          assert.match(line!.body.data.rows[0].reason, /Max Record Size.*The rest of the file was not read/);
          assert.equal(long!.status, 200);
          assert.ok(long!.body.data.counts.created > 4_500, JSON.stringify(long!.body.data.counts));

          assert.ok(latency.samples >= 200, `too few samples to read a p99: ${latency.samples}`);
          assert.ok(
            latency.p99 <= HEALTH_P99_MS,
            `/health p99 ${latency.p99.toFixed(1)} ms while importing (max ${latency.max.toFixed(1)} ms)`,
          );
        },
      );
    },
  );
}
