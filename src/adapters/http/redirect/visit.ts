import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RedirectLink } from '../../../core/redirect/redirect-link.ts';
import { visit, type VisitRequest, type VisitResult } from '../../../core/redirect/visit.ts';
import type { Visitor } from '../../../core/redirect/visitor.ts';
import { createNonce } from '../../web/pages/csp.ts';
import { renderConsent } from '../../web/pages/consent.ts';
import { renderDisabled } from '../../web/pages/disabled.ts';
import { renderExpired } from '../../web/pages/expired.ts';
import { renderPassword } from '../../web/pages/password.ts';
import { renderPixelRedirect } from '../../web/pages/pixel-redirect.ts';
import { renderAppOpen } from '../../web/pages/app-open.ts';
import { visitorFrom } from '../visitor-from-request.ts';
import { consentOf, ruleCookie, ruleCookieOf } from './cookies.ts';
import { sendAnswer, sendPage, type Answer } from './respond.ts';
import type { RedirectContext } from './visit-context.ts';

export interface VisitState {
  link: RedirectLink;
  visitor: Visitor;
  cookies: Record<string, string | undefined>;
  /** Reached through a form (password, consent): answer with a page, since a browser's CSP
   * form-action check would stop a cross-origin redirect after a POST. */
  viaForm: boolean;
  consent?: 'yes' | 'no';
}

export function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}

export function visitorOf(request: FastifyRequest, ctx: RedirectContext): Visitor {
  return visitorFrom({ ip: request.ip, headers: request.headers }, { countries: ctx.countries });
}

function requestOf(request: FastifyRequest, link: RedirectLink): VisitRequest {
  return {
    method: request.method,
    query: queryOf(request.url),
    address: request.ip,
    userAgent: request.headers['user-agent'] ?? '',
    ruleCookie: ruleCookieOf(link, request.headers.cookie),
  };
}

/** api.md §7 steps 2–8 for a link that exists: the visit (core/redirect/visit.ts), then its answer. */
export async function continueVisit(ctx: RedirectContext, request: FastifyRequest, reply: FastifyReply, state: VisitState): Promise<FastifyReply> {
  const { link, visitor, cookies } = state;
  const access = { unlocked: ctx.unlock.isUnlocked(cookies, link), consent: state.consent ?? consentOf(cookies), consentMode: ctx.options.consentMode };
  const visited = visit(ctx, link, visitor, requestOf(request, link), access);
  const result = visited instanceof Promise ? await visited : visited;
  // A nonce only for an answer that is a page: a plain redirect has no use for 16 random bytes.
  switch (result.kind) {
    case 'disabled':
      return sendPage(reply, 404, renderDisabled({ nonce: createNonce() }));
    case 'locked':
      return sendPage(reply, 200, renderPassword({ nonce: createNonce() }));
    case 'ask-consent':
      return sendPage(reply, 200, renderConsent({ nonce: createNonce(), vendors: link.pixels.map((p) => p.type) }));
    case 'expired':
    case 'go':
      return sendAnswer(reply, answerOf(ctx, result, state.viaForm));
  }
}

/**
 * The answer to a visit that went on or found its link expired: a redirect, or a page when
 * pixels fire on the way or the visit came through a form (a browser's CSP form-action check
 * would stop a cross-origin redirect after a POST), or when an app's custom scheme is opened
 * with the web URL to fall back to.
 */
export function answerOf(ctx: RedirectContext, result: Extract<VisitResult, { kind: 'go' | 'expired' }>, viaForm: boolean): Answer {
  if (result.kind === 'expired') {
    if (result.expirationUrl) return { kind: 'redirect', status: ctx.options.redirectStatus, location: result.expirationUrl };
    return { kind: 'page', status: 410, page: renderExpired({ nonce: createNonce() }) };
  }
  const { destination, pixels, fallback } = result;
  const answer: Answer =
    fallback !== undefined
      ? { kind: 'page', status: 200, page: renderAppOpen({ app: destination, fallback, pixels, nonce: createNonce() }) }
      : pixels.length > 0 || viaForm
        ? { kind: 'page', status: 200, page: renderPixelRedirect({ destination, pixels, nonce: createNonce(), delayMs: pixels.length > 0 ? 1000 : 0 }) }
        : { kind: 'redirect', status: ctx.options.redirectStatus, location: destination };
  if (result.cookie !== undefined) answer.cookies = [ruleCookie(result.cookie, ctx.options.secureCookies)];
  return answer;
}
