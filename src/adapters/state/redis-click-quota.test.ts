import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { RedisClickQuota, UnseedableError } from './redis-click-quota.ts';
import { checkRunIdOnConnect } from './run-id-check.ts';
import { UnavailableError } from '../../core/shared/errors.ts';

/**
 * A Redis whose scripts all fail as `fails` says: what a Redis without run_id, or one refusing
 * INFO (or scripts) to scripts, answers the claim script and runId's (the scripts themselves
 * run in test/integration/state/redis-state.test.ts).
 */
function scriptsFailing(fails: () => Error) {
  const calls: string[] = [];
  const client = {
    defineCommand(name: string) {
      (client as Record<string, unknown>)[name] = () => (calls.push(name), Promise.reject(fails()));
    },
    eval: () => (calls.push('eval'), Promise.reject(fails())),
  };
  return { redis: client as unknown as Redis, calls };
}

// As ioredis gives a script's error reply (its ReplyError is typed any).
const noRunId = () =>
  Object.assign(new Error('ERR linkpix: scripts cannot read run_id from INFO server'), { name: 'ReplyError' });

describe('RedisClickQuota, on a Redis whose scripts cannot read its run id', () => {
  test('a claim is unavailable as unseedable (a 503, never a 500), with Redis’s answer as its cause', async () => {
    const quota = new RedisClickQuota(scriptsFailing(noRunId).redis);
    await assert.rejects(quota.claimCount(7, 20, 0), (error: unknown) => {
      assert.ok(error instanceof UnseedableError && error instanceof UnavailableError);
      assert.match(String((error.cause as Error).message), /run_id/);
      return true;
    });
    await assert.rejects(quota.runId(), UnseedableError);
  });

  test('a Redis that is away stays plain unavailable: the database may count for it', async () => {
    const quota = new RedisClickQuota(
      scriptsFailing(() => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).redis,
    );
    await assert.rejects(
      quota.claimCount(7, 20, 0),
      (error: unknown) => error instanceof UnavailableError && !(error instanceof UnseedableError),
    );
  });
});

describe('checkRunIdOnConnect', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  test('one clear error for a Redis whose scripts cannot read run_id, however often it reconnects; told again after it could', async () => {
    const client = new EventEmitter();
    let readable = false;
    const quota = {
      runId: () =>
        readable
          ? Promise.resolve('abc')
          : Promise.reject(new UnseedableError('shared store (Redis)', { cause: noRunId() })),
    };
    const errors: unknown[] = [];
    checkRunIdOnConnect(client as unknown as Redis, quota, (error) => errors.push(error));
    assert.equal(errors.length, 0, 'nothing asked before a connection: the start is not held');
    client.emit('ready');
    client.emit('ready');
    await settle();
    assert.equal(errors.length, 1);
    assert.match(String((errors[0] as Error).message), /run_id.*503.*docs\/design\/caps\.md/);
    readable = true;
    client.emit('ready');
    await settle();
    readable = false;
    client.emit('ready');
    await settle();
    assert.equal(errors.length, 2);
  });

  test('a connection lost during the check is not told here (the outage reporter tells it)', async () => {
    const client = new EventEmitter();
    const errors: unknown[] = [];
    checkRunIdOnConnect(
      client as unknown as Redis,
      { runId: () => Promise.reject(new UnavailableError('shared store (Redis)')) },
      (error) => errors.push(error),
    );
    client.emit('ready');
    await settle();
    assert.deepEqual(errors, []);
  });
});
