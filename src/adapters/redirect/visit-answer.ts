import type { RedirectLink } from '../../core/redirect/redirect-link.ts';
import type { ConsentMode } from '../../core/redirect/resolve-visit.ts';
import { visit, type VisitAccess, type VisitRequest, type VisitResult } from '../../core/redirect/visit.ts';
import { createNonce } from './pages/csp.ts';
import { renderAppOpen } from './pages/app-open.ts';
import { renderConsent } from './pages/consent.ts';
import { renderDisabled } from './pages/disabled.ts';
import { renderExpired } from './pages/expired.ts';
import { renderNotFound } from './pages/not-found.ts';
import { renderPassword } from './pages/password.ts';
import { renderPixelRedirect } from './pages/pixel-redirect.ts';
import { first, visitorFrom, type RequestHeaders } from '../ua/visitor-from-request.ts';
import { consentCookie, consentOf, readCookies, ruleCookie, ruleCookieOf } from './cookies.ts';
import type { Answer } from './answer.ts';
import { renderSocialCard } from './pages/social-card.ts';
import { isUnfurler } from '../ua/unfurler.ts';
import { hostnameOf } from '../shared/request/client-address.ts';
import { privacyUrlOf, type RedirectContext } from './visit-context.ts';

/** What a visit reads of its request, whichever way it came in (node:http's request, or Fastify's, which is one as it is). */
export interface VisitInput {
  method: string;
  /** The request target: the path and its query, as node:http's `req.url` holds it. */
  url: string;
  /** The client address, TRUST_PROXY applied. */
  ip: string;
  headers: RequestHeaders;
  /** The host the link was found by (TRUST_PROXY applied); absent: the Host header. For a card's short URL. */
  host?: string;
}

/** What a visitor just posted on the link's own page (docs/api.md §7): a consent answer, or a password that was right. */
export interface PostedForm {
  consent?: 'yes' | 'no';
  unlocked?: boolean;
}

// What a visit with no cookie to read and no form shows: one per consent mode, not one per visit.
const NO_ACCESS: Readonly<Record<ConsentMode, VisitAccess>> = {
  ask: { unlocked: false, consent: null, consentMode: 'ask' },
  implied: { unlocked: false, consent: null, consentMode: 'implied' },
  never: { unlocked: false, consent: null, consentMode: 'never' },
};

/** The unlock and consent the visitor holds in their cookies, or has just posted. */
function accessOf(ctx: RedirectContext, link: RedirectLink, input: VisitInput, form: PostedForm | null): VisitAccess {
  const cookies = readCookies(first(input.headers.cookie));
  return {
    unlocked: form?.unlocked === true || ctx.unlock.isUnlocked(cookies, link),
    consent: form?.consent ?? consentOf(cookies),
    consentMode: ctx.options.consentMode,
  };
}

/**
 * The one answer to a visit of a link that exists, for every way in (docs/design/visit.md): the visit
 * (core/redirect/visit.ts) with the cookies it reads, then the redirect or page it ends in, with
 * the cookies to set. Synchronous when the visit is; each way in only writes the answer out.
 */
export function visitAnswer(
  ctx: RedirectContext,
  link: RedirectLink,
  input: VisitInput,
  form: PostedForm | null = null,
): Answer | Promise<Answer> {
  // Cookies are parsed only for the links that read them (a password, pixels): most visits have none to read.
  const access =
    link.passwordHash === null && link.pixels.length === 0 && form === null
      ? NO_ACCESS[ctx.options.consentMode]
      : accessOf(ctx, link, input, form);
  const userAgent = first(input.headers['user-agent']) ?? '';
  // Only a link with a card asks whether an unfurler is visiting: every other visit pays nothing.
  const cardUrl = link.card !== null && isUnfurler(userAgent) ? shortUrlOf(ctx, link, input) : null;
  const request: VisitRequest = {
    method: input.method,
    query: queryOf(input.url),
    address: input.ip,
    userAgent,
    // The Cookie header is read only for links whose rules remember a visitor.
    ruleCookie: link.rules.usesCookie ? ruleCookieOf(link, first(input.headers.cookie)) : undefined,
  };
  let visitor = visitorFrom(input, { countries: ctx.countries });
  // An unfurler's fetch is counted apart with the bots, never as a click.
  if (cardUrl !== null && !visitor.isBot) visitor = { ...visitor, isBot: true };
  const result = visit(ctx, link, visitor, request, access);
  return result instanceof Promise
    ? result.then((r) => answerOf(ctx, link, r, form, cardUrl))
    : answerOf(ctx, link, result, form, cardUrl);
}

/** The link's short URL as the visit reached it: APP_URL's for a default-domain link, else its domain's. */
function shortUrlOf(ctx: RedirectContext, link: RedirectLink, input: VisitInput): string {
  if (link.domainId === null) return `${ctx.options.appUrl}/${link.alias}`;
  const host = hostnameOf(input.host ?? first(input.headers.host) ?? '');
  return `${ctx.options.domainScheme}://${host}/${link.alias}`;
}

/** A link no host knows: the custom domain's not-found page if it has one, else linkpix's. */
export async function notFoundAnswer(ctx: RedirectContext, host: string): Promise<Answer> {
  const domain = ctx.options.appHosts.has(host) ? null : await ctx.source.domain(host);
  if (domain?.notFoundPage)
    return { kind: 'redirect', status: ctx.options.redirectStatus, location: domain.notFoundPage };
  return { kind: 'page', status: 404, page: renderNotFound({ nonce: createNonce() }) };
}

function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}

/**
 * The answer to what the visit found: a page for a disabled, locked or consent-asking link; for
 * one that goes on or has expired, a redirect, or a page when pixels fire on the way or the visit
 * came through a form (a browser's CSP form-action check would stop a cross-origin redirect after
 * a POST), or when an app's custom scheme is opened with the web URL to fall back to. A nonce
 * only for a page: a plain redirect has no use for 16 random bytes.
 */
function answerOf(
  ctx: RedirectContext,
  link: RedirectLink,
  result: VisitResult,
  form: PostedForm | null,
  cardUrl: string | null,
): Answer {
  // An unfurler of a link that would go on gets its card; a disabled, expired or locked one does not.
  if (result.kind === 'go' && cardUrl !== null && link.card !== null)
    return { kind: 'page', status: 200, page: renderSocialCard({ card: link.card, shortUrl: cardUrl }) };
  let answer: Answer;
  switch (result.kind) {
    case 'disabled':
      answer = { kind: 'page', status: 404, page: renderDisabled({ nonce: createNonce() }) };
      break;
    case 'locked':
      answer = {
        kind: 'page',
        status: 200,
        page: renderPassword({ nonce: createNonce(), privacyUrl: privacyUrlOf(ctx) }),
      };
      break;
    case 'ask-consent':
      answer = {
        kind: 'page',
        status: 200,
        page: renderConsent({
          nonce: createNonce(),
          vendors: link.pixels.map((p) => p.type),
          privacyUrl: privacyUrlOf(ctx),
        }),
      };
      break;
    case 'expired':
      answer = result.expirationUrl
        ? { kind: 'redirect', status: ctx.options.redirectStatus, location: result.expirationUrl }
        : { kind: 'page', status: 410, page: renderExpired({ nonce: createNonce() }) };
      break;
    case 'go': {
      const { destination, pixels, fallback } = result;
      answer =
        fallback !== undefined
          ? {
              kind: 'page',
              status: 200,
              page: renderAppOpen({
                app: destination,
                fallback,
                pixels,
                nonce: createNonce(),
                privacyUrl: privacyUrlOf(ctx),
              }),
            }
          : pixels.length > 0 || form !== null
            ? {
                kind: 'page',
                status: 200,
                page: renderPixelRedirect({
                  destination,
                  pixels,
                  nonce: createNonce(),
                  privacyUrl: privacyUrlOf(ctx),
                  delayMs: pixels.length > 0 ? 1000 : 0,
                }),
              }
            : { kind: 'redirect', status: ctx.options.redirectStatus, location: destination };
      if (result.cookie !== undefined) answer.cookies = [ruleCookie(result.cookie, ctx.options.secureCookies)];
    }
  }
  return form === null ? answer : withFormCookies(ctx, link, answer, form);
}

/** The cookies a form's answer sets, before the visit's own: the consent given, the unlock earned. */
function withFormCookies(ctx: RedirectContext, link: RedirectLink, answer: Answer, form: PostedForm): Answer {
  const cookies: string[] = [];
  if (form.consent !== undefined) cookies.push(consentCookie(form.consent, ctx.options.secureCookies));
  if (form.unlocked === true && link.passwordHash !== null)
    cookies.push(ctx.unlock.serialize({ id: link.id, passwordHash: link.passwordHash }));
  if (answer.cookies !== undefined) cookies.push(...answer.cookies);
  if (cookies.length > 0) answer.cookies = cookies;
  return answer;
}
