import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from './config.ts';

test('APP_URL unset: http://localhost on the port the server listens on', () => {
  assert.equal(loadConfig({}).APP_URL, 'http://localhost:8080');
  assert.equal(loadConfig({ PORT: '3000' }).APP_URL, 'http://localhost:3000');
});

test('APP_URL set: taken as given, without a trailing slash, whatever the port', () => {
  assert.equal(loadConfig({ PORT: '3000', APP_URL: 'https://s.example.com/' }).APP_URL, 'https://s.example.com');
});

test('a bad PORT is reported by its own name, not as a bad APP_URL', () => {
  assert.throws(
    () => loadConfig({ PORT: 'abc' }),
    (error: unknown) => error instanceof ConfigError && error.message.includes('PORT=') && !error.message.includes('APP_URL='),
  );
});

test('APP_SCHEMES: empty by default, lower-cased; a script, local or web scheme is refused at start', () => {
  assert.deepEqual(loadConfig({}).APP_SCHEMES, []);
  assert.deepEqual(loadConfig({ APP_SCHEMES: 'MyApp, shop-app:' }).APP_SCHEMES, ['myapp', 'shop-app']);
  for (const bad of ['javascript', 'data', 'file', 'https', 'my app', '1app']) {
    assert.throws(
      () => loadConfig({ APP_SCHEMES: `myapp,${bad}` }),
      (error: unknown) => error instanceof ConfigError && error.message.includes('APP_SCHEMES='),
      bad,
    );
  }
});

test('EMAIL_VERIFICATION: off by default; required needs SMTP_URL, and the error names it', () => {
  assert.equal(loadConfig({}).EMAIL_VERIFICATION, 'off');
  assert.throws(() => loadConfig({ EMAIL_VERIFICATION: 'required' }), /EMAIL_VERIFICATION=required needs SMTP_URL/);
  assert.equal(loadConfig({ EMAIL_VERIFICATION: 'required', SMTP_URL: 'smtp://mail.example.test:587' }).EMAIL_VERIFICATION, 'required');
  assert.throws(() => loadConfig({ EMAIL_VERIFICATION: 'maybe' }), /EMAIL_VERIFICATION="maybe"/);
});
