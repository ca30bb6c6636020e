import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, SETTING_NAMES } from './config.ts';
import { TUNING } from './tuning.ts';

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
    (error: unknown) =>
      error instanceof ConfigError && error.message.includes('PORT=') && !error.message.includes('APP_URL='),
  );
});

test('APP_SCHEMES: empty by default, lower-cased; a script, local, web or intent scheme is refused at start', () => {
  assert.deepEqual(loadConfig({}).APP_SCHEMES, []);
  assert.deepEqual(loadConfig({ APP_SCHEMES: 'MyApp, shop-app:' }).APP_SCHEMES, ['myapp', 'shop-app']);
  for (const bad of ['javascript', 'data', 'file', 'https', 'intent', 'Intent:', 'my app', '1app']) {
    assert.throws(
      () => loadConfig({ APP_SCHEMES: `myapp,${bad}` }),
      (error: unknown) => error instanceof ConfigError && error.message.includes('APP_SCHEMES='),
      bad,
    );
  }
});

test('URL_SCHEMES: http and https by default, lower-cased; a script, local-data or intent scheme is refused at start', () => {
  assert.deepEqual(loadConfig({}).URL_SCHEMES, ['http', 'https']);
  assert.deepEqual(loadConfig({ URL_SCHEMES: 'https, FTP:, mailto' }).URL_SCHEMES, ['https', 'ftp', 'mailto']);
  for (const bad of [
    'javascript',
    'JavaScript:',
    'data',
    'vbscript',
    'file',
    'blob',
    'about',
    'intent',
    'Intent:',
    'my scheme',
    '1x',
  ]) {
    assert.throws(
      () => loadConfig({ URL_SCHEMES: `https,${bad}` }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes('URL_SCHEMES=') &&
        error.message.includes(bad.toLowerCase().replace(/:$/, '')),
      bad,
    );
  }
});

test('OIDC_*: none set is no single sign-on; a partial set fails the start naming what is missing', () => {
  assert.equal(loadConfig({}).OIDC_ISSUER, null);
  const full = { OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'linkpix', OIDC_CLIENT_SECRET: 's3cret' };
  const config = loadConfig({ ...full, OIDC_ALLOWED_DOMAINS: 'Example.com, @corp.example' });
  assert.equal(config.OIDC_ISSUER, 'https://id.example.com');
  assert.deepEqual(config.OIDC_ALLOWED_DOMAINS, ['example.com', 'corp.example']);
  assert.throws(
    () => loadConfig({ OIDC_ISSUER: full.OIDC_ISSUER, OIDC_CLIENT_ID: full.OIDC_CLIENT_ID }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /OIDC_CLIENT_SECRET is not set/.test(error.message) &&
      !/OIDC_CLIENT_ID is not set/.test(error.message),
  );
  assert.throws(
    () => loadConfig({ OIDC_CLIENT_SECRET: 'x' }),
    (error: unknown) => error instanceof ConfigError && /OIDC_ISSUER is not set/.test(error.message),
  );
});

test('OIDC_ISSUER: https, or http on a loopback address only', () => {
  const rest = { OIDC_CLIENT_ID: 'linkpix', OIDC_CLIENT_SECRET: 's3cret' };
  assert.equal(loadConfig({ ...rest, OIDC_ISSUER: 'http://127.0.0.1:9000' }).OIDC_ISSUER, 'http://127.0.0.1:9000');
  for (const bad of ['http://id.example.com', 'ftp://id.example.com', 'not a url']) {
    assert.throws(
      () => loadConfig({ ...rest, OIDC_ISSUER: bad }),
      (error: unknown) => error instanceof ConfigError && error.message.includes('OIDC_ISSUER='),
      bad,
    );
  }
});

test('EMAIL_VERIFICATION: off by default; required needs SMTP_URL, and the error names it', () => {
  assert.equal(loadConfig({}).EMAIL_VERIFICATION, 'off');
  assert.throws(() => loadConfig({ EMAIL_VERIFICATION: 'required' }), /EMAIL_VERIFICATION=required needs SMTP_URL/);
  assert.equal(
    loadConfig({ EMAIL_VERIFICATION: 'required', SMTP_URL: 'smtp://mail.example.test:587' }).EMAIL_VERIFICATION,
    'required',
  );
  assert.throws(() => loadConfig({ EMAIL_VERIFICATION: 'maybe' }), /EMAIL_VERIFICATION="maybe"/);
});

test('at most 38 settings, none of them also a constant of tuning.ts', () => {
  // 37: SNAPSHOT_PATH, where an instance keeps its redirect snapshot; 38: HEALTH_CHECK_INTERVAL_HOURS,
  // how often destinations are checked (docs/operations.md).
  assert.ok(SETTING_NAMES.size <= 38, `${SETTING_NAMES.size} settings`);
  for (const name of Object.keys(TUNING)) assert.equal(SETTING_NAMES.has(name), false, name);
});

test('OUTBOUND_ALLOW_PRIVATE: off by default; the three old names read as it for this release, a bad one refused by its name', () => {
  assert.equal(loadConfig({}).OUTBOUND_ALLOW_PRIVATE, false);
  assert.equal(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' }).OUTBOUND_ALLOW_PRIVATE, true);
  for (const alias of ['WEBHOOK_ALLOW_PRIVATE', 'TITLE_FETCH_ALLOW_PRIVATE', 'DOMAIN_VERIFICATION_ALLOW_PRIVATE']) {
    assert.equal(loadConfig({ [alias]: 'true' }).OUTBOUND_ALLOW_PRIVATE, true, alias);
    assert.equal(loadConfig({ [alias]: 'false' }).OUTBOUND_ALLOW_PRIVATE, false, alias);
    assert.equal(
      loadConfig({ [alias]: 'true', OUTBOUND_ALLOW_PRIVATE: 'false' }).OUTBOUND_ALLOW_PRIVATE,
      false,
      `${alias}: the new name wins`,
    );
    assert.throws(
      () => loadConfig({ [alias]: 'maybe' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes(`${alias}="maybe"`) &&
        !error.message.includes('OUTBOUND_ALLOW_PRIVATE="'),
    );
  }
});

test("METRICS_PORT: empty is none; a bare port listens on 127.0.0.1 (METRICS_HOST's for this release); host:port and [v6]:port as given", () => {
  assert.equal(loadConfig({}).METRICS_PORT, null);
  assert.deepEqual(loadConfig({ METRICS_PORT: '9100' }).METRICS_PORT, { host: '127.0.0.1', port: 9100 });
  assert.deepEqual(loadConfig({ METRICS_PORT: '9100', METRICS_HOST: '0.0.0.0' }).METRICS_PORT, {
    host: '0.0.0.0',
    port: 9100,
  });
  assert.deepEqual(loadConfig({ METRICS_PORT: '0.0.0.0:9100' }).METRICS_PORT, { host: '0.0.0.0', port: 9100 });
  assert.deepEqual(loadConfig({ METRICS_PORT: 'metrics.internal:9100', METRICS_HOST: '0.0.0.0' }).METRICS_PORT, {
    host: 'metrics.internal',
    port: 9100,
  });
  assert.deepEqual(loadConfig({ METRICS_PORT: '[::1]:9100' }).METRICS_PORT, { host: '::1', port: 9100 });
  for (const bad of ['0', '70000', 'host:', ':9100', '::1:9100', 'a b:9100', 'host:port']) {
    assert.throws(
      () => loadConfig({ METRICS_PORT: bad }),
      (error: unknown) => error instanceof ConfigError && error.message.includes('METRICS_PORT='),
      bad,
    );
  }
});

test('SNAPSHOT_PATH: beside the SQLite file, ./data/ on PostgreSQL, none in memory; empty is off, a path as given', () => {
  assert.equal(loadConfig({}).SNAPSHOT_PATH, './data/linkpix.db.redirects.snapshot');
  assert.equal(
    loadConfig({ DATABASE_URL: 'sqlite:/var/lib/lpx.db' }).SNAPSHOT_PATH,
    '/var/lib/lpx.db.redirects.snapshot',
  );
  assert.equal(loadConfig({ DATABASE_URL: 'file:./x.db' }).SNAPSHOT_PATH, './x.db.redirects.snapshot');
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).SNAPSHOT_PATH, './data/redirects.snapshot');
  assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).SNAPSHOT_PATH, '');
  assert.equal(loadConfig({ SNAPSHOT_PATH: '' }).SNAPSHOT_PATH, '');
  assert.equal(loadConfig({ SNAPSHOT_PATH: ' /srv/snap ' }).SNAPSHOT_PATH, '/srv/snap');
});
