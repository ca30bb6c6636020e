import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account, Session } from '../../../core/accounts/account.ts';
import { randomToken } from '../../../core/shared/secrets.ts';
import { roleAllows, type Action } from '../../../core/workspaces/policy.ts';
import type { WorkspaceOfUser } from '../../../core/workspaces/workspace.ts';
import { catalogueFor, localeFor, type Catalogue } from '../i18n/catalogue.ts';
import { formatterFor, type Formatter } from '../i18n/format.ts';
import { csrfTokenFor } from './csrf.ts';
import { preSessionOf, setPreSessionCookie } from './session-cookie.ts';

/** Who is looking: set by the web app's first hook when the session cookie names a live session. */
export interface Viewer {
  /** The person (name, email, password, sessions). */
  account: Account;
  session: Session;
  /** The session cookie's value (binds CSRF tokens). */
  token: string;
  /** The workspace the pages act in, with the person's role there read at this request (docs/design/web.md). */
  workspace: WorkspaceOfUser;
  /** Every workspace the person is a member of (the header's switcher). */
  workspaces: readonly WorkspaceOfUser[];
}

export type Theme = 'system' | 'light' | 'dark';

/** Everything a page needs to render for this request. */
export interface View {
  t: Catalogue;
  fmt: Formatter;
  /**
   * The CSRF token for this page's forms. Read lazily: an anonymous page gets its pre-session
   * cookie only when it renders a form that needs the token.
   */
  readonly csrf: string;
  account: Account | null;
  /** The workspace the pages act in and the person's others; null signed out. */
  workspace: WorkspaceOfUser | null;
  workspaces: readonly WorkspaceOfUser[];
  /** Whether the person's role in the workspace allows the action (controls a role forbids are not shown). */
  can(action: Action): boolean;
  /** The path and query asked for (where to return after signing in). */
  url: string;
  theme: Theme;
  /** A one-time message from the previous request (after a 303). */
  flash: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}

const THEME_COOKIE = 'lpx_theme';
const FLASH_COOKIE = 'lpx_flash';

function themeOf(request: FastifyRequest): Theme {
  const value = request.cookies[THEME_COOKIE];
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function setTheme(reply: FastifyReply, theme: Theme): void {
  if (theme === 'system') reply.clearCookie(THEME_COOKIE, { path: '/' });
  else reply.setCookie(THEME_COOKIE, theme, { path: '/', sameSite: 'lax', maxAge: 365 * 86_400 });
}

/** The message the next page shows once (text only: it is escaped like every value). */
export function setFlash(reply: FastifyReply, message: string): void {
  reply.setCookie(FLASH_COOKIE, message.slice(0, 300), { path: '/', httpOnly: true, sameSite: 'lax' });
}

/** The viewer, for routes whose access rule guarantees one. */
export function viewerOf(request: FastifyRequest): Viewer {
  if (!request.viewer) throw new Error('route reached without a session: its access rule is missing');
  return request.viewer;
}

/**
 * The binding of this browser's CSRF tokens: its session, else a pre-session cookie, made on
 * the first page that needs one.
 */
export function csrfBinding(request: FastifyRequest, reply: FastifyReply | null): string | null {
  if (request.viewer) return request.viewer.token;
  const existing = preSessionOf(request);
  if (existing !== null || reply === null) return existing;
  const made = randomToken(32);
  setPreSessionCookie(request, reply, made);
  return made;
}

export function viewOf(request: FastifyRequest, reply: FastifyReply, csrfSecret: string): View {
  const locale = localeFor(request.headers['accept-language']);
  const account = request.viewer?.account ?? null;
  const workspace = request.viewer?.workspace ?? null;
  const flash = request.cookies[FLASH_COOKIE] ?? null;
  if (flash !== null) reply.clearCookie(FLASH_COOKIE, { path: '/' });
  let csrf: string | null = null;
  return {
    t: catalogueFor(locale),
    // Dates and statistics read in the workspace's time zone (issue 33: it is the workspace's).
    fmt: formatterFor(locale, workspace?.timezone ?? 'UTC'),
    get csrf() {
      csrf ??= csrfTokenFor(csrfSecret, csrfBinding(request, reply) ?? '');
      return csrf;
    },
    account,
    workspace,
    workspaces: request.viewer?.workspaces ?? [],
    can: (action) => workspace !== null && roleAllows(workspace.role, action),
    url: request.url,
    theme: themeOf(request),
    flash,
  };
}
