// The daily digest of newly broken links (docs/design/health.md), mailed through a real SMTP
// receiver on both engines: the workspace's admins and owners who have not turned it off get one
// mail each, a second round the same day sends none, and two job runners on one database send once.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { SmtpSink, type SunkMail } from '../../support/smtp-sink.ts';
import { signedUp } from '../../support/web-client.ts';
import { createKeyOnPage } from '../web/account-support.ts';
import { HealthDigests } from '../../../src/core/health/health-digests.ts';
import { SqlHealthDigestStore } from '../../../src/adapters/storage/stores/health-digest-store.ts';
import { SmtpMailer } from '../../../src/adapters/mail/smtp-mailer.ts';
import { addMember, makeKey, makeWorkspace, type Person } from './workspaces-support.ts';
import { makeLink } from './links-support.ts';

const sink = new SmtpSink();
const smtpUrl = await sink.start();
after(() => sink.close());

const APP_URL = 'http://links.example.test';
const FROM = 'linkpix <noreply@example.test>';
const checker = { check: async (url: string) => (url.includes('gone') ? { code: 404 } : { code: 200 }) };

/** The digests among the sink's mails from `from` on, to that address. */
function digestsTo(address: string, from: number): SunkMail[] {
  return sink.mails
    .slice(from)
    .filter((m) => m.to.includes(address) && /^Subject: linkpix: .*newly broken/m.test(m.raw));
}

/** The body as read (quoted-printable soft breaks and escapes undone). */
function bodyOf(mail: SunkMail): string {
  return mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A team of an owner (signed up on the web), two admins and an editor, with a newly broken link. */
async function brokenTeam(h: Harness) {
  const web = await signedUp(h.baseUrl);
  const ownerKey = await createKeyOnPage(web.client);
  const me = await h.request('GET', '/api/v1/account', { key: ownerKey });
  const owner: Person = { id: me.body.data.id, email: web.email, key: ownerKey };
  const [admin, quiet, editor] = [await h.account(), await h.account(), await h.account()];
  const team = await makeWorkspace(h, owner, `Team ${owner.id}`);
  await addMember(h, owner, team.id, admin, 'admin');
  await addMember(h, owner, team.id, quiet, 'admin');
  await addMember(h, owner, team.id, editor, 'editor');
  const key = await makeKey(h, owner, team.id);
  const gone = await makeLink(h, key, { url: `https://gone-${team.id}.example/page`, alias: `gone${team.id}` });
  await makeLink(h, key, { url: `https://fine-${team.id}.example/` });
  const checked = await h.request('POST', `/api/v1/links/${gone.id}/check`, { key });
  assert.equal(checked.body.data.health.status, 'broken', checked.text);
  return { web, owner, admin, quiet, editor, team, gone };
}

async function turnOff(h: Harness, person: Person) {
  await h.server.container.digestPreferences.setDigest(person.id, false);
}

onEachEngine(
  'the broken-links digest: mailed',
  (h) => {
    test('one mail, to the admin who wants it, listing the newly broken link; none again that day', async () => {
      const { web, owner, admin, quiet, editor, team, gone } = await brokenTeam(h());
      // The owner turns it off on the account page, as a person would; the second admin through the store.
      const page = await web.client.get('/account');
      assert.match(page.text, /name="health_digest" value="1" checked/);
      const off = await web.client.post('/account/notifications', { health_digest: '0' }, { from: '/account' });
      assert.equal(off.status, 303, off.text.slice(0, 300));
      assert.doesNotMatch((await web.client.get('/account')).text, /name="health_digest" value="1" checked/);
      await turnOff(h(), quiet);

      const from = sink.mails.length;
      const digests = h().server.container.healthDigests;
      assert.ok(digests, 'a mail server is set: the digest runs');
      await digests.round();
      for (const person of [owner, quiet, editor]) assert.equal(digestsTo(person.email, from).length, 0, person.email);
      const mails = digestsTo(admin.email, from);
      assert.equal(mails.length, 1);
      const body = bodyOf(mails[0]!);
      assert.match(mails[0]!.raw, new RegExp(`^Subject: linkpix: 1 link newly broken in Team ${owner.id}`, 'm'));
      assert.ok(body.includes(`${APP_URL}/gone${team.id}`), 'the short link');
      assert.ok(body.includes(`https://gone-${team.id}.example/page`), 'the destination');
      assert.match(body, /HTTP 404/);
      assert.ok(body.includes(`${APP_URL}/links/${gone.id}`), 'the link page');
      assert.ok(body.includes(`${APP_URL}/links?health=broken`), 'the broken filter');
      assert.doesNotMatch(body, /fine-/, 'a link that is fine is not listed');
      assert.match(mails[0]!.raw, /Content-Type: text\/html/, 'an HTML part beside the text');

      await digests.round();
      assert.equal(digestsTo(admin.email, from).length, 1, 'a second round the same day sends nothing');
    });

    test('two job runners on one database: one mail', async () => {
      const { owner, admin, quiet, editor } = await brokenTeam(h());
      await turnOff(h(), quiet);
      await turnOff(h(), owner);
      const { container } = h().server;
      const runner = () =>
        new HealthDigests({
          store: new SqlHealthDigestStore(container.storage.db),
          mailer: new SmtpMailer(smtpUrl, FROM),
          clock: container.clock,
          urls: { appUrl: APP_URL, domainScheme: 'https' },
        });
      const from = sink.mails.length;
      await Promise.all([runner().round(), runner().round(), container.healthDigests!.round()]);
      assert.equal(digestsTo(admin.email, from).length, 1);
      assert.equal(digestsTo(editor.email, from).length, 0);
    });
  },
  {
    env: { SMTP_URL: smtpUrl, MAIL_FROM: FROM, APP_URL, OUTBOUND_ALLOW_PRIVATE: 'true' },
    overrides: { healthChecker: checker, tuning: { HEALTH_RETRY_MS: 0 } },
  },
);

onEachEngine('the broken-links digest: no mail server', (h) => {
  test('the job is not there: nothing to send with', () => {
    assert.equal(h().server.container.healthDigests, null);
  });
});
