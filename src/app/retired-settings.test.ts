import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retiredSettingsWarning } from './retired-settings.ts';

test('nothing retired set: no warning', () => {
  assert.equal(
    retiredSettingsWarning({ PORT: '8080', CLICK_FLUSH_INTERVAL_MS: '500', OUTBOUND_ALLOW_PRIVATE: 'true' }),
    null,
  );
});

test('one line names every retired variable set, with what replaced each', () => {
  const line = retiredSettingsWarning({
    PORT: '8080',
    CLICK_BATCH_SIZE: '40',
    WEBHOOK_LEASE_MS: '1000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    TITLE_FETCH_ALLOW_PRIVATE: 'false',
    METRICS_HOST: '0.0.0.0',
  });
  assert.ok(line !== null && !line.includes('\n'));
  assert.match(line, /WEBHOOK_ALLOW_PRIVATE → OUTBOUND_ALLOW_PRIVATE/);
  assert.match(line, /TITLE_FETCH_ALLOW_PRIVATE → OUTBOUND_ALLOW_PRIVATE/);
  assert.match(line, /METRICS_HOST → METRICS_PORT=host:port/);
  assert.match(line, /WEBHOOK_LEASE_MS, CLICK_BATCH_SIZE → constants \(docs\/design\/settings\.md\)/);
  assert.doesNotMatch(line, /(^|[ ;,])PORT\b/, 'a setting still read is not named');
});

test('LINKPIX_TEST_TUNING outside NODE_ENV=test is named as not read', () => {
  assert.match(
    retiredSettingsWarning({ LINKPIX_TEST_TUNING: '{}' }) ?? '',
    /LINKPIX_TEST_TUNING → nothing: read by tests only/,
  );
  assert.equal(retiredSettingsWarning({ LINKPIX_TEST_TUNING: '{}', NODE_ENV: 'test' }), null);
});
