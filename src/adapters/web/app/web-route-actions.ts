import type { Action } from '../../../core/workspaces/policy.ts';

/**
 * What decides a web route (docs/design/web.md): a policy action in the current workspace; the
 * person's own pages (profile, security, sign-out: no workspace's data); the workspaces
 * service, which checks its own actions per workspace of the path; or nothing (public pages,
 * the operator's, which have their own rule).
 */
export type WebRouteRule = Action | 'person' | 'service' | 'none';

export interface WebPolicedRoute {
  method: string;
  url: string;
  rule: WebRouteRule;
}

/** Data pages by path prefix, longest first: the read and the write action of each. */
const SECTIONS: readonly (readonly [prefix: string, read: Action, write: Action])[] = [
  ['/links/utm-templates', 'links.read', 'links.write'],
  ['/links/tags', 'links.read', 'links.write'],
  ['/links', 'links.read', 'links.write'],
  ['/dashboard/analytics', 'stats.read', 'stats.read'],
  ['/dashboard', 'links.read', 'links.write'],
  ['/pixels', 'pixels.read', 'pixels.write'],
  ['/spaces', 'spaces.read', 'spaces.write'],
  ['/domains', 'domains.read', 'domains.write'],
  ['/webhooks', 'webhooks.read', 'webhooks.write'],
];

/** A page that is only a form that writes (new, edit, delete, bulk shortening) needs the write action to open. */
const FORM_PAGE = /\/(new|edit|delete|bulk)$/;
/** A preview replays a draft and changes nothing: a reader may post one. */
const PREVIEW = /\/preview$/;

function under(url: string, prefix: string): boolean {
  return url === prefix || url.startsWith(`${prefix}/`);
}

/**
 * The rule of a web route from its method, path pattern and access. A state-changing route of
 * a signed-in person that no rule names fails the start (registerWebApp), so a new form cannot
 * slip past the policy; a page that only reads and is not listed needs no more than a session.
 */
export function webRuleOf(method: string, url: string, access: 'public' | 'account' | 'admin'): WebRouteRule | null {
  if (access !== 'account') return 'none';
  if (url === '/account/workspaces' || under(url, '/account/workspaces') || url.startsWith('/signup/invitation/'))
    return 'service';
  // Live numbers are the workspace's clicks.
  if (url === '/account/live') return 'stats.read';
  if (url === '/account' || url.startsWith('/account/') || url === '/logout') return 'person';
  // The import page writes links, under the API's own import action (its role and scope).
  if (under(url, '/links/import')) return 'links.import';
  const section = SECTIONS.find(([prefix]) => under(url, prefix));
  if (!section) return null;
  const [, read, write] = section;
  const reads = method === 'GET' || method === 'HEAD';
  if (reads) return FORM_PAGE.test(url) ? write : read;
  return PREVIEW.test(url) ? read : write;
}
