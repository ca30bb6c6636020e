// Invitations are mailed when SMTP is set (issue 33): after the invitation is stored, and a failed mail leaves it standing; both engines.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { SmtpSink } from '../../support/smtp-sink.ts';
import { makeWorkspace } from './workspaces-support.ts';

const sink = new SmtpSink();
const smtpUrl = await sink.start();
after(() => sink.close());

const APP_URL = 'http://links.example.test';

/** The invitation page's link in a message (quoted-printable soft breaks undone). */
function invitationLinkOf(raw: string): string {
  const match = /(https?:\/\/\S+\/signup\/invitation\/[A-Za-z0-9_-]{43})/.exec(raw.replace(/=\r?\n/g, ''));
  if (!match) throw new Error(`no invitation link in:\n${raw}`);
  return match[1]!;
}

onEachEngine(
  'API invitations: mailed',
  (h) => {
    test('the invited email gets the accept page link on APP_URL; the inviter still gets token and accept_url once', async () => {
      const a = await h().account();
      const team = await makeWorkspace(h(), a, 'Growth');
      const invitee = `invitee-${Date.now()}@example.com`;
      const before = sink.mails.length;
      const res = await h().request('POST', `/api/v1/workspaces/${team.id}/invitations`, {
        key: a.key,
        json: { email: invitee, role: 'editor' },
        headers: { host: 'evil.example' },
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.mailed, true);
      assert.ok(res.body.data.token);
      assert.ok(res.body.data.accept_url);
      const mail = await sink.mailTo(invitee, before);
      assert.match(mail.raw, /^Subject: .*invited you to Growth on linkpix/m);
      assert.equal(
        invitationLinkOf(mail.raw),
        `${APP_URL}/signup/invitation/${res.body.data.token}`,
        'built on APP_URL, never the Host',
      );
      assert.match(mail.raw, /as editor/);

      const b = await h().account(invitee);
      const accepted = await h().request('POST', `/api/v1/invitations/${res.body.data.token}/accept`, { key: b.key });
      assert.equal(accepted.status, 200, 'the mailed token is the one that accepts');
    });
  },
  { env: { SMTP_URL: smtpUrl, MAIL_FROM: 'linkpix <noreply@example.test>', APP_URL } },
);

const failures: unknown[] = [];

onEachEngine(
  'API invitations: a mail server that refuses',
  (h) => {
    test('the invitation stands, the answer says it was not mailed, and the failure is told', async () => {
      const a = await h().account();
      const team = await makeWorkspace(h(), a);
      const res = await h().request('POST', `/api/v1/workspaces/${team.id}/invitations`, {
        key: a.key,
        json: { email: 'someone@example.com', role: 'viewer' },
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.data.mailed, false);
      assert.ok(failures.length >= 1, 'the failure reached the log');
      const listed = await h().request('GET', `/api/v1/workspaces/${team.id}/invitations`, { key: a.key });
      assert.deepEqual(
        listed.body.data.map((i: { id: number }) => i.id),
        [res.body.data.id],
      );
      const b = await h().account('someone@example.com');
      assert.equal(
        (await h().request('POST', `/api/v1/invitations/${res.body.data.token}/accept`, { key: b.key })).status,
        200,
      );
    });
  },
  // Port 9 (discard) has no mail server on the test machine: the connection is refused.
  { env: { SMTP_URL: 'smtp://127.0.0.1:9' }, overrides: { onError: (e) => failures.push(e) } },
);
