// EMAIL_VERIFICATION=required (docs/design/teams.md): a sign-up is mailed a single-use link and cannot sign in until it
// opens it; both engines.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { onEachEngine } from '../../support/harness.ts';
import { PASSWORD, WebClient } from '../../support/web-client.ts';
import { SmtpSink } from '../../support/smtp-sink.ts';
import { ManualClock } from '../stats/stats-support.ts';
import { isSignedIn } from './account-support.ts';

const sink = new SmtpSink();
const smtpUrl = await sink.start();
after(() => sink.close());

const clock = new ManualClock(Date.parse('2026-03-10T12:00:00Z'));
const APP_URL = 'http://links.example.test';

function verifyLinkOf(raw: string): string {
  const match = /(https?:\/\/\S+\/signup\/verify\/[A-Za-z0-9_-]{43})/.exec(raw.replace(/=\r?\n/g, ''));
  if (!match) throw new Error(`no verification link in:\n${raw}`);
  return match[1]!;
}

const signIn = (client: WebClient, email: string) =>
  client.post('/login', { email, password: PASSWORD }, { from: '/login' });

onEachEngine(
  'web: email verification required',
  (h) => {
    test('a sign-up gets a link and no session; sign-in is refused until the link is confirmed, once', async () => {
      clock.set('2026-03-10T12:00:00Z');
      const email = `verify-${randomBytes(4).toString('hex')}@example.com`;
      const client = new WebClient(h().baseUrl);
      const before = sink.mails.length;
      const made = await client.post(
        '/signup',
        { name: 'New', email, password: PASSWORD },
        { from: '/signup', headers: { host: 'evil.example' } },
      );
      assert.equal(made.status, 303, made.text);
      assert.equal(made.location, `/signup/verify?email=${encodeURIComponent(email)}`);
      assert.equal(await isSignedIn(client), false, 'no session before the email is proved');
      const waiting = await client.get(made.location);
      assert.equal(waiting.status, 200);
      assert.match(waiting.text, new RegExp(`value="${email}"`), 'the resend form holds the email');

      const mail = await sink.mailTo(email, before);
      assert.match(mail.raw, /^Subject: Confirm your email address/m);
      const link = verifyLinkOf(mail.raw);
      assert.ok(link.startsWith(`${APP_URL}/signup/verify/`), `built on APP_URL: ${link}`);
      const path = link.slice(APP_URL.length);

      const refused = await signIn(new WebClient(h().baseUrl), email);
      assert.equal(refused.status, 303);
      assert.equal(refused.location, `/signup/verify?email=${encodeURIComponent(email)}`);
      const wrong = await signIn(new WebClient(h().baseUrl), email.replace('verify', 'nobody'));
      assert.equal(wrong.status, 422, 'an unknown email is a wrong password as ever');

      const opened = await client.get(path);
      assert.equal(opened.status, 200, 'opening the link changes nothing: the button does');
      const confirmed = await client.post(path, {}, { from: path });
      assert.equal(confirmed.status, 303);
      assert.equal(confirmed.location, '/login');
      assert.equal((await client.post(path, {}, { from: path })).status, 410, 'once');

      const fine = new WebClient(h().baseUrl);
      assert.equal((await signIn(fine, email)).status, 303);
      assert.equal(await isSignedIn(fine), true);
    });

    test('a resend mails a new link (limited per email, same answer for any email); a link is good for 24 hours', async () => {
      clock.set('2026-03-10T12:00:00Z');
      const email = `late-${randomBytes(4).toString('hex')}@example.com`;
      const client = new WebClient(h().baseUrl);
      let from = sink.mails.length;
      await client.post('/signup', { name: 'Late', email, password: PASSWORD }, { from: '/signup' });
      const first = verifyLinkOf((await sink.mailTo(email, from)).raw).slice(APP_URL.length);

      clock.set('2026-03-11T12:00:01Z');
      assert.equal((await client.post(first, {}, { from: first })).status, 410, 'a day old');

      from = sink.mails.length;
      const asked = await client.post('/signup/verify', { email }, { from: '/signup/verify' });
      assert.equal(asked.status, 303);
      const second = verifyLinkOf((await sink.mailTo(email, from)).raw).slice(APP_URL.length);
      assert.notEqual(second, first);
      const stranger = await client.post(
        '/signup/verify',
        { email: 'nobody-at-all@example.com' },
        { from: '/signup/verify' },
      );
      assert.equal(stranger.status, 303, 'the same answer');
      assert.equal((await client.post('/signup/verify', { email: '' }, { from: '/signup/verify' })).status, 422);
      await client.post('/signup/verify', { email }, { from: '/signup/verify' });
      await client.post('/signup/verify', { email }, { from: '/signup/verify' });
      const limited = await client.post('/signup/verify', { email }, { from: '/signup/verify' });
      assert.equal(limited.status, 429);
      assert.ok(limited.headers.get('retry-after'));

      assert.equal((await client.post(second, {}, { from: second })).status, 303);
      assert.equal((await signIn(new WebClient(h().baseUrl), email)).status, 303);
    });

    test('the account and its "unverified" mark commit together: a mark that cannot be written leaves no account', async () => {
      const email = `half-${randomBytes(4).toString('hex')}@example.com`;
      const db = h().server.container.storage.db;
      // The mark's table gone for a moment: its insert fails inside the sign-up's transaction.
      await sql`alter table unverified_emails rename to unverified_emails_away`.execute(db);
      let made;
      try {
        made = await new WebClient(h().baseUrl).post(
          '/signup',
          { name: 'Half', email, password: PASSWORD },
          { from: '/signup' },
        );
      } finally {
        await sql`alter table unverified_emails_away rename to unverified_emails`.execute(db);
      }
      assert.equal(made.status, 500, 'the sign-up failed as a whole');
      const left = await db.selectFrom('accounts').select('id').where('email', '=', email).execute();
      assert.deepEqual(left, [], 'no account was left behind');
      assert.equal((await signIn(new WebClient(h().baseUrl), email)).status, 422, 'nothing to sign in to');
      const again = await new WebClient(h().baseUrl).post(
        '/signup',
        { name: 'Half', email, password: PASSWORD },
        { from: '/signup' },
      );
      assert.equal(again.status, 303, 'the email is free to sign up with');
      const stored = await db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      assert.equal(await h().server.container.security.verification!.pending(stored.id), true, 'stored unverified');
    });
  },
  {
    env: { SMTP_URL: smtpUrl, MAIL_FROM: 'linkpix <noreply@example.test>', APP_URL, EMAIL_VERIFICATION: 'required' },
    overrides: { clock },
  },
);

onEachEngine('web: email verification off (the default)', (h) => {
  test('a sign-up signs in at once and /signup/verify does not exist', async () => {
    const client = new WebClient(h().baseUrl);
    const made = await client.post(
      '/signup',
      { name: 'Now', email: `now-${randomBytes(4).toString('hex')}@example.com`, password: PASSWORD },
      { from: '/signup' },
    );
    assert.equal(made.status, 303);
    assert.equal(made.location, '/dashboard');
    assert.equal(await isSignedIn(client), true);
    assert.equal((await client.get('/signup/verify')).status, 404);
  });
});
