import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { safeNext, seeOther, sendView } from '../../app/respond.ts';
import {
  clearSsoPendingCookie,
  setChallengeCookie,
  setSsoPendingCookie,
  ssoPendingOf,
} from '../../app/session-cookie.ts';
import { CHALLENGE_LIFETIME_MS } from '../../../../core/security/two-step-sign-in.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { ProviderUnreachableError, type PendingSignIn } from '../../../oidc/openid-connect.ts';
import { clientOf, startSession } from './auth-pages.ts';

/** Time to sign in at the provider and come back. */
const PENDING_SECONDS = 10 * 60;

type Problem = keyof View['t']['auth']['sso']['refused'];

/** A pending sign-in, or a pending link (`linkFor`: the person who started connecting their identity). */
type Pending = PendingSignIn & { next: string; linkFor?: number };

/** The pending sign-in as the cookie holds it; null when it is not one of ours. */
function pendingOf(raw: string | null): Pending | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { state, nonce, verifier, next, linkFor } = value;
    if (
      typeof state !== 'string' ||
      typeof nonce !== 'string' ||
      typeof verifier !== 'string' ||
      typeof next !== 'string'
    )
      return null;
    if (linkFor !== undefined && !(typeof linkFor === 'number' && Number.isSafeInteger(linkFor))) return null;
    return { state, nonce, verifier, next: safeNext(next), ...(typeof linkFor === 'number' ? { linkFor } : {}) };
  } catch {
    return null;
  }
}

/**
 * Single sign-on (docs/design/teams.md): /login/sso leaves for the provider with a fresh state, nonce
 * and PKCE verifier kept in a cookie of this browser; /login/sso/callback checks the answer
 * against them (once: the cookie goes), then signs in as SsoSignIn decides.
 */
export const ssoPages: WebFeature = (web, ctx: WebContext) => {
  const sso = ctx.security.sso;
  if (!sso) return;
  const secret = ctx.web.csrfSecret;
  const problem = (request: FastifyRequest, reply: FastifyReply, status: number, which: Problem, linking = false) => {
    const view = viewOf(request, reply, secret);
    const s = view.t.auth.sso;
    const main = html`<h1>${s.title}</h1>
<p role="alert">${s.refused[which]}</p>
<p>${linking ? html`<a href="/account/security">${s.backToSecurity}</a>` : html`<a href="/login">${s.backToSignIn}</a>`}</p>`;
    return sendView(reply, status, appLayout(view, { title: s.title, main, narrow: true, section: '/login' }));
  };

  web.get('/login/sso', { config: { access: 'public' } }, async (request, reply) => {
    const next = safeNext((request.query as Record<string, unknown>).next);
    if (request.viewer) return seeOther(reply, next);
    try {
      const { url, pending } = await sso.provider.start();
      setSsoPendingCookie(
        request,
        reply,
        Buffer.from(JSON.stringify({ ...pending, next })).toString('base64url'),
        PENDING_SECONDS,
      );
      return seeOther(reply, url);
    } catch (error) {
      if (error instanceof ProviderUnreachableError) return problem(request, reply, 503, 'unreachable');
      throw error;
    }
  });

  // A link, not a form, as on /login: form-action 'self' would refuse the redirect to the provider.
  // The state, nonce and verifier bind the answer to this browser; `linkFor` to the person signed in here.
  web.get('/account/security/sso/connect', async (request, reply) => {
    const { account } = viewerOf(request);
    try {
      const { url, pending } = await sso.provider.start();
      const value: Pending = { ...pending, next: '/account/security', linkFor: account.id };
      setSsoPendingCookie(request, reply, Buffer.from(JSON.stringify(value)).toString('base64url'), PENDING_SECONDS);
      return seeOther(reply, url);
    } catch (error) {
      if (error instanceof ProviderUnreachableError) return problem(request, reply, 503, 'unreachable', true);
      throw error;
    }
  });

  web.get('/login/sso/callback', { config: { access: 'public' } }, async (request, reply) => {
    const pending = pendingOf(ssoPendingOf(request));
    clearSsoPendingCookie(request, reply);
    if (!pending) return problem(request, reply, 400, 'expired', request.viewer !== null);
    const linkFor = pending.linkFor;
    const linking = linkFor !== undefined;
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    let claims;
    try {
      claims = await sso.provider.finish(query, pending);
    } catch (error) {
      if (error instanceof ProviderUnreachableError) return problem(request, reply, 503, 'unreachable', linking);
      request.log.info({ err: error }, 'a single sign-on answer was refused');
      return problem(request, reply, 400, 'rejected', linking);
    }
    if (linkFor !== undefined) {
      // Only the person who started connecting, still signed in in this browser, gets the identity.
      if (request.viewer?.account.id !== linkFor) return problem(request, reply, 400, 'expired', true);
      const linked = await sso.links.link(linkFor, claims);
      if (linked !== 'linked') return problem(request, reply, 403, linked, true);
      const view = viewOf(request, reply, secret);
      setFlash(reply, view.t.security.sso.connected(sso.name || view.t.auth.sso.defaultName));
      return seeOther(reply, '/account/security');
    }
    const outcome = await sso.signIn.complete(claims, clientOf(request));
    if (outcome.kind === 'refused') return problem(request, reply, 403, outcome.reason);
    if (outcome.kind === 'code') {
      setChallengeCookie(request, reply, outcome.token, CHALLENGE_LIFETIME_MS / 1000);
      return seeOther(reply, `/login/two-factor?next=${encodeURIComponent(pending.next)}`);
    }
    startSession(request, reply, outcome.signedIn, false);
    return seeOther(reply, pending.next);
  });
};
