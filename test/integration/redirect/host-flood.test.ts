// Issue 14, finding 9: pipelined visits, each with a different 10 KB Host, must not fill the
// server's memory. Every such Host is the app's host before it reaches a cache, so the flood
// leaves one link entry (and, for unknown aliases, at most the misses cap) with short keys, and
// the heap after garbage collection within a stated bound. The cache does not depend on the
// database engine: this runs on SQLite only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startHarness, type Harness } from '../../support/harness.ts';
import { rawConnection } from '../../support/raw-http.ts';

// Enough that keeping each Host (10 KB) would pass the heap bound twice over.
const HOSTS = 5_000;
const UNKNOWN = 4_000;
const HOST_BYTES = 10_000;
const CONNECTIONS = 8;
const PER_WRITE = 50;
/** The stated bound: what the heap may keep after the floods, once garbage is collected. */
const HEAP_GROWTH_BOUND = 24 * 1024 * 1024;
// A key is "host alias": a domain name (at most 253 characters) and an alias (at most 255).
const LONGEST_KEY = 253 + 1 + 255;

// The heap is measured after a full collection; node:test's child processes are not started
// with --expose-gc, so the flag is set here.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** A distinct Host of about HOST_BYTES characters (a valid name or not: the server must not care). */
function bigHost(i: number): string {
  return `${i}-${randomBytes(8).toString('hex')}.${'h'.repeat(HOST_BYTES)}.test`;
}

/** Sends `count` requests built by `request(i)`, pipelined over CONNECTIONS sockets; returns the statuses counted. */
async function flood(port: number, count: number, request: (i: number) => string): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const conn = await rawConnection(port);
      try {
        while (next < count) {
          const batch: string[] = [];
          while (batch.length < PER_WRITE && next < count) batch.push(request(next++));
          await conn.write(batch.join(''));
          for (const r of await conn.responses(batch.length, 20_000))
            statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        }
      } finally {
        conn.close();
      }
    }),
  );
  return statuses;
}

describe('redirect: a flood of distinct Host headers [sqlite]', () => {
  let h: Harness;
  let port: number;

  before(async () => {
    h = await startHarness('sqlite');
    port = Number(new URL(h.baseUrl).port);
    const { key } = await h.account();
    const made = await h.request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/hello', alias: 'hello' },
    });
    assert.equal(made.status, 201, made.text);
  });

  after(async () => {
    await h?.close();
  });

  test(
    `${HOSTS} visits of /hello, each with its own ${HOST_BYTES}-byte Host, then ${UNKNOWN} of unknown aliases: bounded entries and heap`,
    { timeout: 120_000 },
    async () => {
      const cache = h.server.container.visits.source;
      const warm = await flood(port, CONNECTIONS, () => `GET /hello HTTP/1.1\r\nHost: warm.example\r\n\r\n`);
      assert.deepEqual(warm, { 302: CONNECTIONS });
      const before = heapAfterGc();

      const visits = await flood(port, HOSTS, (i) => `GET /hello HTTP/1.1\r\nHost: ${bigHost(i)}\r\n\r\n`);
      assert.deepEqual(visits, { 302: HOSTS }, "every Host that is no custom domain serves the app's link");
      const afterVisits = cache.sizes;
      assert.equal(afterVisits.links, 1);
      assert.equal(afterVisits.misses, 0);
      assert.equal(afterVisits.domains, 0);

      const unknown = await flood(
        port,
        UNKNOWN,
        (i) => `GET /u${i}${randomBytes(6).toString('hex')} HTTP/1.1\r\nHost: ${bigHost(i)}\r\n\r\n`,
      );
      assert.deepEqual(unknown, { 404: UNKNOWN });
      const sizes = cache.sizes;
      assert.equal(sizes.links, 1);
      assert.ok(sizes.misses <= 10_000, `misses ${sizes.misses}`);
      assert.equal(sizes.domains, 0, 'no domain lookup is remembered for a Host that is no domain');
      assert.ok(sizes.longestKey <= LONGEST_KEY, `longest key ${sizes.longestKey}`);

      const growth = heapAfterGc() - before;
      assert.ok(growth < HEAP_GROWTH_BOUND, `the heap kept ${(growth / 1048576).toFixed(1)} MB`);
    },
  );
});
