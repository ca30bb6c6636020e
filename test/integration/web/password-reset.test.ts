import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { PASSWORD, WebClient, signedUp } from '../../support/web-client.ts';
import { SmtpSink, resetLinkOf } from '../../support/smtp-sink.ts';
import { ManualClock } from '../stats/stats-support.ts';
import { fieldError, isSignedIn, signedIn } from './account-support.ts';

const sink = new SmtpSink();
const smtpUrl = await sink.start();
after(() => sink.close());

const clock = new ManualClock(Date.parse('2026-03-10T12:00:00Z'));
const APP_URL = 'http://links.example.test';
const NEW_PASSWORD = 'a brand new passphrase';

onEachEngine(
  'web: password reset by email',
  (h) => {
    test('the link comes by SMTP, built on APP_URL; it sets the password once and ends every session', async () => {
      clock.set('2026-03-10T12:00:00Z');
      const { client, email } = await signedUp(h().baseUrl);
      const other = await signedIn(h().baseUrl, email);
      const stranger = new WebClient(h().baseUrl);
      const before = sink.mails.length;

      assert.match(
        (await stranger.get('/login/forgot')).text,
        /we send a link/,
        'with a mail server, a link is promised',
      );
      const asked = await stranger.post(
        '/login/forgot',
        { email: email.toUpperCase() },
        { from: '/login/forgot', headers: { host: 'evil.example' } },
      );
      assert.equal(asked.status, 303);
      assert.equal(asked.location, '/login');
      const mail = await sink.mailTo(email, before);
      assert.match(mail.raw, /^Subject: Reset your password/m);
      const link = resetLinkOf(mail.raw);
      assert.ok(link.startsWith(`${APP_URL}/login/reset/`), `built on APP_URL, never the Host: ${link}`);
      const path = link.slice(APP_URL.length);

      const form = await stranger.get(path);
      assert.equal(form.status, 200);
      assert.match(form.text, /Choose a new password/);

      const short = await stranger.post(path, { password: 'short', password_confirmation: 'short' }, { from: path });
      assert.equal(short.status, 422);
      assert.ok(fieldError(short.text, 'password'));
      const mismatch = await stranger.post(
        path,
        { password: NEW_PASSWORD, password_confirmation: 'something else' },
        { from: path },
      );
      assert.equal(mismatch.status, 422);
      assert.ok(fieldError(mismatch.text, 'password_confirmation'));
      assert.equal((await stranger.get(path)).status, 200, 'a refused form does not spend the link');

      const done = await stranger.post(
        path,
        { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
        { from: path },
      );
      assert.equal(done.status, 303);
      assert.equal(done.location, '/login');
      assert.equal(await isSignedIn(client), false, 'every session ended');
      assert.equal(await isSignedIn(other), false);

      assert.equal((await stranger.get(path)).status, 410, 'used once');
      const again = await stranger.post(
        path,
        { password: 'yet another password', password_confirmation: 'yet another password' },
        { from: '/login/forgot' },
      );
      assert.equal(again.status, 410);

      const wrong = await new WebClient(h().baseUrl).post('/login', { email, password: PASSWORD }, { from: '/login' });
      assert.equal(wrong.status, 422, 'the old password no longer works');
      await signedIn(h().baseUrl, email, undefined, NEW_PASSWORD);
    });

    test('an unknown email gets the same answer and no mail; a link is dead after an hour', async () => {
      clock.set('2026-03-10T13:00:00Z');
      const stranger = new WebClient(h().baseUrl);
      const unknown = await stranger.post(
        '/login/forgot',
        { email: 'nobody-here@example.com' },
        { from: '/login/forgot' },
      );
      const { email } = await signedUp(h().baseUrl);
      const before = sink.mails.length;
      const known = await stranger.post('/login/forgot', { email }, { from: '/login/forgot' });
      assert.equal(unknown.status, known.status);
      assert.equal(unknown.location, known.location);
      assert.equal(unknown.text, known.text);
      const path = resetLinkOf((await sink.mailTo(email, before)).raw).slice(APP_URL.length);
      assert.ok(!sink.mails.some((m) => m.to.includes('nobody-here@example.com')), 'no mail to an unknown address');

      clock.set('2026-03-10T13:59:59Z');
      assert.equal((await stranger.get(path)).status, 200);
      clock.set('2026-03-10T14:00:00Z');
      assert.equal((await stranger.get(path)).status, 410, 'an hour old');
      assert.equal(
        (
          await stranger.post(
            path,
            { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
            { from: '/login/forgot' },
          )
        ).status,
        410,
      );
      assert.equal((await stranger.get('/login/reset/not-a-token')).status, 410);
    });

    test('asking is rate-limited per email (429 with Retry-After), with the same answer before the limit', async () => {
      clock.set('2026-03-10T15:00:00Z');
      const stranger = new WebClient(h().baseUrl);
      const email = 'limited-reset@example.com';
      for (let i = 0; i < 3; i++)
        assert.equal((await stranger.post('/login/forgot', { email }, { from: '/login/forgot' })).status, 303);
      const refused = await stranger.post('/login/forgot', { email }, { from: '/login/forgot' });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.ok(fieldError(refused.text, 'email'));
      const empty = await stranger.post('/login/forgot', { email: '' }, { from: '/login/forgot' });
      assert.equal(empty.status, 422);
      assert.ok(fieldError(empty.text, 'email'));
    });
  },
  { env: { SMTP_URL: smtpUrl, APP_URL }, overrides: { clock } },
);

onEachEngine('web: password reset without a mail server', (h) => {
  test('the page promises no email: it names the CLI that makes a link, and asking says the log has it', async () => {
    const stranger = new WebClient(h().baseUrl);
    const page = await stranger.get('/login/forgot');
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /we send a link/);
    assert.match(page.text, /This server sends no email/);
    assert.match(page.text, /<code>linkpix users reset-link you@example\.com<\/code>/);
    const asked = await stranger.post('/login/forgot', { email: 'nobody@example.com' }, { from: '/login/forgot' });
    assert.equal(asked.status, 303);
    assert.match((await stranger.get('/login')).text, /its reset link is in the server’s log/);
  });
});
