// Always know where you are (issue 51): the current workspace's name and its switcher in every
// signed-in page's header (a plain form: a select, a button, CSRF), one name for a personal
// workspace on every page, and an invitation's address locked at sign-up.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient } from '../../support/web-client.ts';
import { webInvite, webPerson, webWorkspace, type WebPerson } from './workspaces-support.ts';

/** The header's markup, where the workspace is shown. */
const headerOf = (page: string) => /<header class="site-header">[\s\S]*?<\/header>/.exec(page)?.[0] ?? '';
/** The header's switch form. */
const switcherOf = (page: string) =>
  /<form method="post" action="\/account\/workspaces\/switch" class="workspace-bar[\s\S]*?<\/form>/.exec(
    headerOf(page),
  )?.[0] ?? '';

const PAGES = ['/dashboard', '/links', '/pixels', '/account', '/account/api-keys', '/account/workspaces'];

onEachEngine('web: the workspace in the header', (h) => {
  let solo: WebPerson;
  let owner: WebPerson;
  let team: number;

  before(async () => {
    solo = await webPerson(h().baseUrl);
    owner = await webPerson(h().baseUrl);
    team = await webWorkspace(owner, 'Acme <b>team</b>');
  });

  test('with one workspace every page names it in the header, Personal, with nothing to switch to', async () => {
    for (const path of PAGES) {
      const page = await solo.client.get(path);
      assert.equal(page.status, 200, path);
      assert.match(headerOf(page.text), /class="workspace-name">Personal<\/strong>/, path);
      assert.equal(switcherOf(page.text), '', `${path}: one workspace, no switch`);
    }
    const signedOut = await new WebClient(h().baseUrl).get('/login');
    assert.doesNotMatch(signedOut.text, /workspace-bar/, 'signed out there is no workspace');
  });

  test('with two, every page has the switcher in the header (out of the account menu), the current one chosen', async () => {
    for (const path of PAGES) {
      const page = await owner.client.get(path);
      const form = switcherOf(page.text);
      assert.match(form, /name="_csrf" value="[^"]+"/, `${path}: the switch carries its CSRF token`);
      assert.match(form, new RegExp(`name="next" value="${path.replace(/\//g, '\\/')}"`), path);
      assert.match(form, /<label for="workspace-select"[^>]*>Workspace<\/label>/);
      assert.match(form, /<option value="\d+">Personal<\/option>/, path);
      assert.match(form, new RegExp(`<option value="${team}" selected>Acme &lt;b&gt;team&lt;/b&gt;</option>`));
      assert.match(form, /<button type="submit"[^>]*>Switch<\/button>/, 'a button: it works without JavaScript');
      assert.doesNotMatch(form, /data-autosubmit/, 'moving through the options by keyboard does not switch');
      const menu = /<details[^>]*account-menu[\s\S]*?<\/details>/.exec(page.text)?.[0] ?? '';
      assert.doesNotMatch(menu, /workspaces\/switch/, `${path}: the account menu no longer holds it`);
    }
  });

  test('switching from the header is a plain form post: 303 back to the page, the name shown, the pages in it', async () => {
    const page = await owner.client.get('/links');
    const personal = /<option value="(\d+)">Personal<\/option>/.exec(switcherOf(page.text))?.[1];
    assert.ok(personal);
    const forged = await owner.client.post(
      '/account/workspaces/switch',
      { workspace: personal, next: '/links', _csrf: 'x'.repeat(43) },
      { from: '/links' },
    );
    assert.equal(forged.status, 403, 'a switch without its token is refused');
    const switched = await owner.client.post(
      '/account/workspaces/switch',
      { workspace: personal, next: '/links' },
      { from: '/links' },
    );
    assert.equal(switched.status, 303);
    assert.equal(switched.location, '/links');
    const after = await owner.client.get('/links');
    assert.match(switcherOf(after.text), new RegExp(`<option value="${personal}" selected>Personal</option>`));
    assert.match(after.text, /class="flash" role="status">[^<]*Personal/, 'the flash names it as the header does');
    await owner.client.post(
      '/account/workspaces/switch',
      { workspace: String(team), next: '/links' },
      { from: '/links' },
    );
  });

  test("a personal workspace is Personal to its person on every page that names a workspace, never its person's name", async () => {
    const list = await owner.client.get('/account/workspaces');
    const id = /<a href="\/account\/workspaces\/(\d+)" aria-label="Manage Personal"[^>]*>Personal<\/a>/.exec(
      list.text,
    )?.[1];
    assert.ok(id, 'the list names it Personal');
    const own = await owner.client.get(`/account/workspaces/${id}`);
    assert.match(own.text, /<title>Personal · /);
    assert.match(own.text, /<h1>Personal<\/h1>/);
    assert.doesNotMatch(
      /aria-labelledby="settings-title"[\s\S]*?<\/section>/.exec(own.text)?.[0] ?? 'name="name"',
      /name="name"/,
      'a personal workspace has no name of its own to set',
    );
    const saved = await owner.client.post(
      `/account/workspaces/${id}/settings`,
      { timezone: 'Europe/Paris', require_2fa: '0' },
      { from: `/account/workspaces/${id}` },
    );
    assert.equal(saved.status, 303, saved.text.slice(0, 300));
    assert.match((await owner.client.get('/account')).text, /value="Web User"/, "the person's name is kept");
    const keys = await owner.client.get('/account/api-keys');
    assert.match(
      keys.text,
      new RegExp(`<option value="${id}"[^>]*>Personal</option>`),
      'the new key’s workspace select',
    );
    assert.doesNotMatch(keys.text, /<option value="\d+"[^>]*>Web User<\/option>/);
    // The API's record keeps the stored name: the pages' word is not the API's.
    for (const path of ['/account/workspaces', `/account/workspaces/${id}`, '/account/api-keys', '/dashboard']) {
      const page = await owner.client.get(path);
      assert.doesNotMatch(
        page.text
          .replace(/<details[^>]*account-menu[\s\S]*?<\/details>/, '')
          // The members table names the person, as a person.
          .replace(/<section[^>]*aria-labelledby="members-title"[\s\S]*?<\/section>/, ''),
        /Web User/,
        `${path}: the person's name appears only as the person`,
      );
    }
  });

  test("from an invitation's link the sign-up form shows its address locked, and the account is made with it", async () => {
    const invited = `locked-${Date.now()}@example.com`;
    const token = await webInvite(owner, team, invited, 'editor');
    const next = `/signup/invitation/${token}`;
    const anonymous = new WebClient(h().baseUrl);
    const form = await anonymous.get(`/signup?next=${encodeURIComponent(next)}`);
    assert.equal(form.status, 200);
    const email = /<input[^>]*name="email"[^>]*>/.exec(form.text)?.[0] ?? '';
    assert.match(email, new RegExp(`value="${invited.replace('.', '\\.')}"`));
    assert.match(email, / readonly/);
    assert.match(form.text, /The invitation was sent to this address/);
    const bad = await anonymous.post(
      '/signup',
      { name: 'Locked', email: 'someone-else@example.com', password: 'short', next },
      { from: `/signup?next=${encodeURIComponent(next)}` },
    );
    assert.equal(bad.status, 422);
    assert.match(
      /<input[^>]*name="email"[^>]*>/.exec(bad.text)?.[0] ?? '',
      new RegExp(`value="${invited.replace('.', '\\.')}"[^>]*readonly`),
    );
    const made = await anonymous.post(
      '/signup',
      { name: 'Locked', email: 'someone-else@example.com', password: 'correct horse battery staple', next },
      { from: `/signup?next=${encodeURIComponent(next)}` },
    );
    assert.equal(made.status, 303, made.text.slice(0, 300));
    assert.equal(made.location, next);
    const page = await anonymous.get(next);
    assert.match(page.text, /Join the workspace/, 'the account has the invited address, so it may join');
    const account = await anonymous.get('/account');
    assert.match(account.text, new RegExp(invited.replace('.', '\\.')));
    assert.doesNotMatch(account.text, /someone-else@example\.com/);
  });

  test('an ordinary sign-up, or one naming a used or unknown invitation, keeps the typed address', async () => {
    const anonymous = new WebClient(h().baseUrl);
    const next = `/signup/invitation/${'x'.repeat(43)}`;
    const form = await anonymous.get(`/signup?next=${encodeURIComponent(next)}`);
    assert.doesNotMatch(/<input[^>]*name="email"[^>]*>/.exec(form.text)?.[0] ?? '', /readonly/);
    const typed = `typed-${Date.now()}@example.com`;
    const made = await anonymous.post(
      '/signup',
      { name: 'Typed', email: typed, password: 'correct horse battery staple', next },
      { from: `/signup?next=${encodeURIComponent(next)}` },
    );
    assert.equal(made.status, 303);
    assert.match((await anonymous.get('/account')).text, new RegExp(typed.replace('.', '\\.')));
  });
});
