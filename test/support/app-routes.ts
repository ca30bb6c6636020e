/**
 * Every route of the web app, with data to show, for the checks and screenshots that go through
 * all of them (test/e2e/every-route-browser.test.ts, scripts/screenshots.ts). A new screen is one
 * more line in `appRoutes`; what it needs to show something goes in `seedAppData`.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Harness } from './harness.ts';
import { apiKeyOf, signUpInBrowser, startDestination, type Destination } from './web-browser.ts';

export interface AppRoute {
  /** A file-name-safe label: `links`, `stats-countries`. */
  name: string;
  path: string;
  /** Seen signed out (sign-in, sign-up); the others signed in as the operator. */
  signedOut?: boolean;
}

/** The records the routes show. */
export interface AppData {
  link: number;
  pixel: number;
  space: number;
  domain: number;
  tag: number;
  utmTemplate: number;
  /** A team workspace of the operator, with a pending invitation and a key. */
  workspace: number;
  /** That invitation's token (its page, seen signed out). */
  invitation: string;
}

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/**
 * A pixel, a space, a domain, a targeted link with a long title and clicks from three countries,
 * and a few plain links with long URLs, made through the API as `email` (already signed up).
 * The server must trust X-Forwarded-For (TRUST_PROXY=true) for the clicks to have countries.
 */
export async function seedAppData(h: Harness, email: string, dest: Destination): Promise<AppData> {
  const key = await apiKeyOf(h, email);
  const made = async (path: string, form: Record<string, unknown>): Promise<number> => {
    const res = await h.request('POST', path, { key, form });
    assert.equal(res.status, 201, `${path}: ${res.text}`);
    return res.body.data.id as number;
  };
  const pixel = await made('/api/v1/pixels', { name: 'Shop pixel', type: 'facebook', value: '123456789' });
  const space = await made('/api/v1/spaces', { name: 'Spring campaign', color: 2 });
  const domain = await made('/api/v1/domains', { name: 'go.example.com', index_page: `${dest.base}/home` });
  const link = await made('/api/v1/links', {
    url: `${dest.base}/everyone/${'a-rather-long-path-segment/'.repeat(3)}`,
    title: 'A link with a rather long title, to see how a narrow screen wraps or cuts it',
    space,
    tags: ['spring', 'newsletter'],
    target_type: 1,
    country: [
      { key: 'US', value: `${dest.base}/us` },
      { key: 'GB', value: `${dest.base}/gb` },
    ],
  });
  for (let i = 0; i < 4; i++) {
    await made('/api/v1/links', {
      url: `${dest.base}/page-${i}/${'long-path-segment-'.repeat(4)}`,
      alias: `plain-${i}`,
      ...(i === 0 ? { pixels: [pixel] } : {}),
      ...(i === 1 ? { disabled: 1 } : {}),
    });
  }
  const alias = (await h.request('GET', `/api/v1/links/${link}`, { key })).body.data.alias as string;
  for (const ip of ['8.8.8.8', '81.2.69.160', '85.214.0.1']) {
    const res = await fetch(`${h.baseUrl}/${alias}`, {
      redirect: 'manual',
      headers: { 'user-agent': UA, 'x-forwarded-for': ip },
    });
    assert.equal(res.status, 302, `a visit from ${ip}`);
  }
  await h.server.container.visits.sink.flush();
  const tags = (await h.request('GET', '/api/v1/tags', { key })).body.data as { id: number; name: string }[];
  const tag = tags.find((t) => t.name === 'spring')!.id;
  const utmTemplate = await made('/api/v1/utm-templates', {
    name: 'Newsletter',
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'spring',
  });
  const team = await h.request('POST', '/api/v1/workspaces', { key, json: { name: 'Marketing team' } });
  assert.equal(team.status, 201, team.text);
  const workspace = team.body.data.id as number;
  const invited = await h.request('POST', `/api/v1/workspaces/${workspace}/invitations`, {
    key,
    json: { email: 'colleague@example.com', role: 'editor' },
  });
  assert.equal(invited.status, 201, invited.text);
  const teamKey = await h.request('POST', `/api/v1/workspaces/${workspace}/api-keys`, {
    key,
    json: { name: 'CI deploys', scopes: ['links:read', 'links:write'] },
  });
  assert.equal(teamKey.status, 201, teamKey.text);
  return { link, pixel, space, domain, tag, utmTemplate, workspace, invitation: invited.body.data.token as string };
}

const STATS_TABS = [
  'countries',
  'cities',
  'referrers',
  'browsers',
  'platforms',
  'devices',
  'languages',
  'hours',
] as const;

/** Every page of the app, in the order a person meets them. */
export function appRoutes(d: AppData): AppRoute[] {
  return [
    { name: 'home', path: '/', signedOut: true },
    { name: 'login', path: '/login', signedOut: true },
    { name: 'signup', path: '/signup', signedOut: true },
    { name: 'login-forgot', path: '/login/forgot', signedOut: true },
    { name: 'privacy', path: '/privacy', signedOut: true },
    { name: 'dashboard', path: '/dashboard' },
    { name: 'analytics', path: '/dashboard/analytics' },
    { name: 'links', path: '/links' },
    { name: 'links-filtered', path: `/links?search=plain&space=${d.space}&status=1` },
    { name: 'links-no-match', path: '/links?search=nothing-like-this' },
    { name: 'link-new', path: '/links/new' },
    { name: 'links-bulk', path: '/links/bulk' },
    { name: 'links-import', path: '/links/import' },
    { name: 'link-edit', path: `/links/${d.link}/edit` },
    { name: 'link-qr', path: `/links/${d.link}/qr` },
    { name: 'link-rules', path: `/links/${d.link}/rules` },
    { name: 'link-conversions', path: `/links/${d.link}/conversions` },
    { name: 'link-history', path: `/links/${d.link}/history` },
    { name: 'link-history-restore', path: `/links/${d.link}/history/1/restore` },
    { name: 'link-schedule', path: `/links/${d.link}/schedule` },
    { name: 'link-delete', path: `/links/${d.link}/delete` },
    { name: 'links-tagged', path: '/links?tag=spring' },
    { name: 'tags', path: '/links/tags' },
    { name: 'tag-edit', path: `/links/tags/${d.tag}/edit` },
    { name: 'tag-delete', path: `/links/tags/${d.tag}/delete` },
    { name: 'utm-templates', path: '/links/utm-templates' },
    { name: 'utm-template-new', path: '/links/utm-templates/new' },
    { name: 'utm-template-edit', path: `/links/utm-templates/${d.utmTemplate}/edit` },
    { name: 'stats', path: `/stats/${d.link}` },
    ...STATS_TABS.map((tab) => ({ name: `stats-${tab}`, path: `/stats/${d.link}/${tab}` })),
    { name: 'pixels', path: '/pixels' },
    { name: 'pixel-new', path: '/pixels/new' },
    { name: 'pixel-edit', path: `/pixels/${d.pixel}/edit` },
    { name: 'spaces', path: '/spaces' },
    { name: 'space-new', path: '/spaces/new' },
    { name: 'space-edit', path: `/spaces/${d.space}/edit` },
    { name: 'domains', path: '/domains' },
    { name: 'domain-new', path: '/domains/new' },
    { name: 'domain-edit', path: `/domains/${d.domain}/edit` },
    { name: 'account', path: '/account' },
    { name: 'api-keys', path: '/account/api-keys' },
    { name: 'account-security', path: '/account/security' },
    { name: 'account-delete', path: '/account/delete' },
    { name: 'workspaces', path: '/account/workspaces' },
    { name: 'workspace', path: `/account/workspaces/${d.workspace}` },
    { name: 'workspace-delete', path: `/account/workspaces/${d.workspace}/delete` },
    { name: 'invitation', path: `/signup/invitation/${d.invitation}`, signedOut: true },
    { name: 'workspace-audit', path: `/account/workspaces/${d.workspace}/audit` },
    { name: 'admin', path: '/admin' },
    { name: 'admin-accounts', path: '/admin/accounts' },
    { name: 'admin-workspaces', path: '/admin/workspaces' },
    { name: 'admin-links', path: '/admin/links' },
    { name: 'admin-data', path: '/admin/data' },
  ];
}

export interface SeededApp {
  dest: Destination;
  /** The first account signed up: the operator, so /admin opens. */
  email: string;
  routes: AppRoute[];
}

/** Signs the operator up on `page` (through the form), seeds the data and lists the routes. */
export async function seedApp(h: Harness, page: Page): Promise<SeededApp> {
  const dest = await startDestination();
  const email = await signUpInBrowser(page, h.baseUrl);
  return { dest, email, routes: appRoutes(await seedAppData(h, email, dest)) };
}
