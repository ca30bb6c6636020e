// Invalidations are not lost across a Redis reconnection: an instance whose connections were
// cut while another published a change drops what it cached once it is back (within 1 s), and
// keeps its cache when nothing was published meanwhile; a change Redis refused to publish is
// published when it is back. Redis must be reachable (CI starts one).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisInvalidationBus, type InvalidationHandler } from '../../../src/adapters/state/redis-invalidation.ts';
import { TcpProxy } from '../../support/tcp-proxy.ts';
import { eventually } from '../../support/eventually.ts';

const REDIS_URL = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `linkpix-test:${randomUUID()}:`;

let proxy: TcpProxy;
let direct: Redis;

before(async () => {
  proxy = await TcpProxy.start({ host: REDIS_URL.hostname, port: Number(REDIS_URL.port || 6379) });
  direct = new Redis(REDIS_URL.href, { maxRetriesPerRequest: 1 });
  assert.equal(await direct.ping(), 'PONG');
});

after(async () => {
  await direct.del(`${prefix}invalidate:version`);
  direct.disconnect();
  await proxy.close();
});

/** A client through the proxy, retrying every 50 ms while it is cut (as a short outage would). */
function throughProxy(): Redis {
  const client = new Redis(`redis://127.0.0.1:${proxy.port}`, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
  client.on('error', () => {});
  return client;
}

class Recorder implements InvalidationHandler {
  seen: string[] = [];
  linkChanged(id: number, alias?: string): void {
    this.seen.push(alias === undefined ? `link ${id}` : `link ${id} ${alias}`);
  }
  accountChanged(id: number): void {
    this.seen.push(`account ${id}`);
  }
  everythingChanged(): void {
    this.seen.push('everything');
  }
}

const ready = (client: Redis) => new Promise<void>((resolve) => client.once('ready', () => resolve()));

test('a change published while the subscriber was cut off is followed within 1 s of reconnecting; a quiet outage keeps the cache', async () => {
  const client = throughProxy();
  const listening = new RedisInvalidationBus(client, { prefix, onError: () => {} });
  const publishing = new RedisInvalidationBus(direct, { prefix });
  const heard = new Recorder();
  try {
    await listening.subscribe(heard);
    publishing.linkChanged(1, 'abc');
    await eventually('the first message', () => heard.seen.length === 1, { timeoutMs: 2000, everyMs: 10 });
    assert.deepEqual(heard.seen, ['link 1 abc']);

    // Cut with nothing published meanwhile: nothing to drop.
    await proxy.cut();
    await proxy.restore();
    await ready(client);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(heard.seen, ['link 1 abc']);

    // Cut, and a change published meanwhile: lost by pub/sub, noticed by the counter.
    await proxy.cut();
    publishing.linkChanged(2, 'xyz');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(heard.seen, ['link 1 abc']);
    const back = ready(client);
    await proxy.restore();
    await back;
    const ms = await eventually('the catch-up after reconnecting', () => heard.seen.includes('everything'), {
      timeoutMs: 1000,
      everyMs: 10,
    });
    assert.ok(ms <= 1000);

    // Heard in sequence again.
    publishing.accountChanged(3);
    await eventually('the next message', () => heard.seen.at(-1) === 'account 3', { timeoutMs: 2000, everyMs: 10 });
  } finally {
    await listening.close();
    await publishing.close();
    client.disconnect();
  }
});

test('a change this instance could not publish (Redis away) is published once Redis is back', async () => {
  const client = throughProxy();
  const listening = new RedisInvalidationBus(direct, { prefix });
  const heard = new Recorder();
  const errors: unknown[] = [];
  const quiet = new RedisInvalidationBus(client, { prefix, onError: (e) => errors.push(e) });
  try {
    await listening.subscribe(heard);
    await client.ping();
    await proxy.cut();
    quiet.linkChanged(5, 'gone');
    // The client gives the command up after its retries; the bus keeps the change.
    await eventually('the refused publish', () => errors.length > 0, { timeoutMs: 5000, everyMs: 10 });
    assert.deepEqual(heard.seen, []);
    await proxy.restore();
    await eventually('the change, published again', () => heard.seen.includes('link 5 gone'), {
      timeoutMs: 3000,
      everyMs: 10,
    });
  } finally {
    await quiet.close();
    await listening.close();
    client.disconnect();
  }
});
