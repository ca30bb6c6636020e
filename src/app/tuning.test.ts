import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from './config.ts';
import { TUNING, testTuning, tuningOf } from './tuning.ts';

test('tuningOf: the constants, with a test’s values over them', () => {
  assert.equal(tuningOf().CLICK_BATCH_SIZE, TUNING.CLICK_BATCH_SIZE);
  const moved = tuningOf({ CLICK_BATCH_SIZE: 40 });
  assert.equal(moved.CLICK_BATCH_SIZE, 40);
  assert.equal(moved.WEBHOOK_LEASE_MS, TUNING.WEBHOOK_LEASE_MS);
});

test('LINKPIX_TEST_TUNING: read only when NODE_ENV=test', () => {
  const raw = JSON.stringify({ CLICK_BATCH_SIZE: 40, WEBHOOK_POLL_MS: 50 });
  assert.deepEqual(testTuning({ NODE_ENV: 'test', LINKPIX_TEST_TUNING: raw }), {
    CLICK_BATCH_SIZE: 40,
    WEBHOOK_POLL_MS: 50,
  });
  assert.deepEqual(testTuning({ LINKPIX_TEST_TUNING: raw }), {});
  assert.deepEqual(testTuning({ NODE_ENV: 'production', LINKPIX_TEST_TUNING: raw }), {});
  assert.deepEqual(testTuning({ NODE_ENV: 'test' }), {});
});

test('LINKPIX_TEST_TUNING: not an object, an unknown name, a value out of bounds or not an integer: refused, every one named', () => {
  for (const raw of ['nope', '[1]', '3', 'null']) {
    assert.throws(
      () => testTuning({ NODE_ENV: 'test', LINKPIX_TEST_TUNING: raw }),
      (e: unknown) => e instanceof ConfigError && /must be a JSON object/.test(e.message),
      raw,
    );
  }
  const raw = JSON.stringify({
    CLICK_BACTH_SIZE: 40,
    WEBHOOK_POLL_MS: 1,
    QR_THREADS: '2',
    LINK_CACHE_TTL_MS: 1.5,
    PORT: 80,
  });
  assert.throws(
    () => testTuning({ NODE_ENV: 'test', LINKPIX_TEST_TUNING: raw }),
    (e: unknown) =>
      e instanceof ConfigError &&
      [
        'CLICK_BACTH_SIZE: no such constant',
        'WEBHOOK_POLL_MS=1: must be an integer between 50',
        'QR_THREADS="2"',
        'LINK_CACHE_TTL_MS=1.5',
        'PORT: no such constant',
      ].every((part) => e.message.includes(part)),
  );
});
