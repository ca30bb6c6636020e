import { after, before } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { eventually } from './eventually.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = () => {};

/** An adapter of the live feeds: one subscriber connection an instance, opened by its first listener. */
interface LiveAdapter {
  subscribe(accountId: number, listener: () => void): () => void;
  close(): Promise<void>;
}

/** Resolves once `count` subscriber connections listen on `channel`. */
export async function subscribers(redis: Redis, count: number, channel: string): Promise<void> {
  await eventually(`${count} subscribers on ${channel}`, async () => {
    const [, n] = (await redis.pubsub('NUMSUB', channel)) as [string, number];
    return Number(n) >= count;
  });
}

/**
 * Two instances of a live adapter, each with its own connection to the shared Redis under a
 * prefix of their own, both subscribed on `channel` (under the prefix) before the suite's tests;
 * closed after them. Call inside a describe; the getter answers once `before` has run.
 */
export function redisPair<T extends LiveAdapter>(
  make: (redis: Redis, options: { prefix: string; onError: () => void }) => T,
  channel: string,
) {
  const prefix = `linkpix-test:${randomUUID()}:`;
  let pair: { a: T; b: T; serverA: Redis; serverB: Redis; channel: string } | null = null;
  before(async () => {
    const serverA = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const serverB = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    serverA.on('error', quiet);
    serverB.on('error', quiet);
    await Promise.all([serverA.ping(), serverB.ping()]);
    const [a, b] = [make(serverA, { prefix, onError: quiet }), make(serverB, { prefix, onError: quiet })];
    pair = { a, b, serverA, serverB, channel: `${prefix}${channel}` };
    a.subscribe(0, quiet);
    b.subscribe(0, quiet);
    await subscribers(serverA, 2, pair.channel);
  });
  after(async () => {
    await pair?.a.close();
    await pair?.b.close();
    pair?.serverA.disconnect();
    pair?.serverB.disconnect();
  });
  return () => {
    if (!pair) throw new Error('the Redis pair is not open yet');
    return pair;
  };
}
