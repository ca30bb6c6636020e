// Issue 33: a page shows a write control only when the policy table lets the person take it.
// Every page a viewer reaches by following links carries no form, link or selection box that
// would end on the 403 page; an editor's pages still carry them. Judged by the web app's own
// route rules (web-route-actions.ts), so a new control is checked without listing it here.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { POLICY, roleAllows, type Action, type Role } from '../../../src/core/workspaces/policy.ts';
import { webRuleOf } from '../../../src/adapters/web/app/web-route-actions.ts';
import { webCast } from './workspaces-support.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const MAX_PAGES = 80;

interface Page {
  path: string;
  text: string;
}

/** Pages reached from `start` by links, each path once; refusals and downloads are not pages. */
async function crawl(client: WebClient, start: readonly string[]): Promise<Page[]> {
  const seen = new Set<string>();
  const queue = [...start];
  const pages: Page[] = [];
  while (queue.length > 0 && pages.length < MAX_PAGES) {
    const path = queue.shift()!;
    const key = path.split('?')[0]!;
    if (seen.has(key)) continue;
    seen.add(key);
    const res = await client.get(path);
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/html')) continue;
    pages.push({ path, text: res.text });
    for (const [, href] of res.text.matchAll(/<a [^>]*href="(\/[^"#]*)"/g)) {
      const target = href!.replaceAll('&amp;', '&');
      // Short links are visits; /docs is Swagger UI's; the operator's pages have their own rule.
      if (
        target.startsWith('//') ||
        target.startsWith('/docs') ||
        target.startsWith('/admin') ||
        target.startsWith('/logout')
      )
        continue;
      if (!seen.has(target.split('?')[0]!)) queue.push(target);
    }
  }
  return pages;
}

/** The policy action a control's target needs, when the route table names one. */
function actionOf(method: string, target: string): Action | null {
  const rule = webRuleOf(method, target.split('?')[0]!, 'account');
  return rule !== null && rule in POLICY ? (rule as Action) : null;
}

/** Every control on the page the role may not use: forms that post, links to forms, selection boxes. */
function forbiddenControls(page: Page, role: Role): string[] {
  const found: string[] = [];
  for (const [, action] of page.text.matchAll(/<form [^>]*method="post" [^>]*action="([^"]*)"/g)) {
    const needed = actionOf('POST', action!.replaceAll('&amp;', '&'));
    if (needed !== null && !roleAllows(role, needed)) found.push(`form → ${action} (${needed})`);
  }
  for (const [, href] of page.text.matchAll(/<a [^>]*href="(\/[^"#]*)"/g)) {
    const needed = actionOf('GET', href!.replaceAll('&amp;', '&'));
    if (needed !== null && !roleAllows(role, needed)) found.push(`link → ${href} (${needed})`);
  }
  if (!roleAllows(role, 'links.write') && /name="ids\[\]"/.test(page.text)) found.push('bulk selection boxes');
  return found;
}

/** The team's records, made with the owner's key in the workspace. */
async function furnish(h: Harness, ownerEmail: string, workspaceId: number): Promise<{ linkId: number }> {
  const { apiKey: personal } = await h.server.container.accounts.createKey(ownerEmail, 'personal', TEST_ACTOR);
  const made = await h.request('POST', `/api/v1/workspaces/${workspaceId}/api-keys`, {
    key: personal,
    json: { name: 'team' },
  });
  assert.equal(made.status, 201, made.text);
  const key = made.body.data.key as string;
  const post = async (path: string, json: Json) => {
    const res = await h.request('POST', path, { key, json });
    assert.equal(res.status, 201, `${path}: ${res.text}`);
    return res.body.data;
  };
  const space = await post('/api/v1/spaces', { name: 'Work' });
  await post('/api/v1/pixels', { name: 'Ads', type: 'google-analytics', value: 'G-123' });
  await post('/api/v1/domains', { name: `team-${workspaceId}.example.com` });
  await post('/api/v1/utm-templates', { name: 'Newsletter', utm_source: 'news' });
  const link = await post('/api/v1/links', { url: 'https://example.com/team', space: space.id, tags: ['Launch'] });
  return { linkId: link.id };
}

onEachEngine('web: write controls follow the policy table', (h) => {
  let cast: Awaited<ReturnType<typeof webCast>>;
  let start: string[];

  before(async () => {
    cast = await webCast(h().baseUrl, 'Controls');
    const { linkId } = await furnish(h(), cast.people.owner.email, cast.workspaceId);
    start = [
      '/dashboard',
      '/links',
      `/stats/${linkId}`,
      `/links/${linkId}/qr`,
      `/links/${linkId}/rules`,
      `/links/${linkId}/conversions`,
      '/pixels',
      '/spaces',
      '/domains',
      '/links/tags',
      '/links/utm-templates',
      '/account/workspaces',
      `/account/workspaces/${cast.workspaceId}`,
    ];
  });

  test("a viewer's pages carry no control that leads to the 403 page", async () => {
    const pages = await crawl(cast.people.viewer.client, start);
    const paths = pages.map((p) => p.path);
    for (const path of [
      '/links',
      '/pixels',
      '/spaces',
      '/domains',
      '/links/tags',
      '/links/utm-templates',
      `/account/workspaces/${cast.workspaceId}`,
    ])
      assert.ok(paths.includes(path), `the viewer reached ${path}: ${paths.join(' ')}`);
    const problems = pages.flatMap((page) => forbiddenControls(page, 'viewer').map((c) => `${page.path}: ${c}`));
    assert.deepEqual(problems, []);
    const team = pages.find((p) => p.path === `/account/workspaces/${cast.workspaceId}`)!.text;
    assert.doesNotMatch(team, /action="[^"]*\/(settings|invitations|role)"/, 'no settings, invitation or role form');
    assert.doesNotMatch(team, /\/delete"/, 'no delete link');
  });

  test("an editor's pages still carry the write controls the role allows, and none it does not", async () => {
    const pages = await crawl(cast.people.editor.client, start);
    const text = (path: string) => pages.find((p) => p.path === path)?.text ?? '';
    assert.match(text('/links'), /href="\/links\/new"/);
    assert.match(text('/links'), /name="ids\[\]"/);
    assert.match(text('/pixels'), /href="\/pixels\/new"/);
    assert.match(text('/spaces'), /href="\/spaces\/new"/);
    assert.match(text('/links/tags'), /href="\/links\/tags\/\d+\/edit"/);
    assert.match(text('/links/utm-templates'), /href="\/links\/utm-templates\/(new|\d+\/edit)"/);
    assert.doesNotMatch(text('/domains'), /href="\/domains\/new"/, 'domains are written by admins');
    const problems = pages.flatMap((page) => forbiddenControls(page, 'editor').map((c) => `${page.path}: ${c}`));
    assert.deepEqual(problems, []);
  });
});
