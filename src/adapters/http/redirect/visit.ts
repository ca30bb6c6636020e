import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Click } from '../../../core/clicks/click.ts';
import type { Eventually } from '../../../core/clicks/ports.ts';
import type { ClickStamp } from '../../../core/stats/click-stamp.ts';
import { mergeQuery } from '../../../core/redirect/merge-query.ts';
import type { RedirectLink } from '../../../core/redirect/redirect-link.ts';
import { resolveVisit, type VisitOutcome } from '../../../core/redirect/resolve-visit.ts';
import type { Visitor } from '../../../core/redirect/visitor.ts';
import { createNonce } from '../../web/pages/csp.ts';
import { renderConsent } from '../../web/pages/consent.ts';
import { renderDisabled } from '../../web/pages/disabled.ts';
import { renderExpired } from '../../web/pages/expired.ts';
import { renderPassword } from '../../web/pages/password.ts';
import { renderPixelRedirect } from '../../web/pages/pixel-redirect.ts';
import { visitorFrom } from '../visitor-from-request.ts';
import { consentOf } from './cookies.ts';
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

/** What the last steps of a visit need of its request, whichever server read it. */
export interface VisitRequest {
  method: string;
  /** The query string without its "?", or ''. */
  query: string;
  /** The client address (TRUST_PROXY applied): hashed into the visitor of the day, never kept. */
  address: string;
  userAgent: string;
}

export type Proceed = Extract<VisitOutcome, { kind: 'proceed' }>;

export function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}

export function visitorOf(request: FastifyRequest, ctx: RedirectContext): Visitor {
  return visitorFrom({ ip: request.ip, headers: request.headers }, { countries: ctx.countries });
}

function requestOf(request: FastifyRequest): VisitRequest {
  return { method: request.method, query: queryOf(request.url), address: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

/** api.md §7 steps 2–8 for a link that exists: resolve (pure) → respond → record. */
export async function continueVisit(ctx: RedirectContext, request: FastifyRequest, reply: FastifyReply, state: VisitState): Promise<FastifyReply> {
  const { link, visitor, cookies } = state;
  const outcome = resolveVisit(link, visitor, {
    now: ctx.clock.now(),
    unlocked: ctx.unlock.isUnlocked(cookies, link),
    consent: state.consent ?? consentOf(cookies),
    consentMode: ctx.options.consentMode,
  });
  // A nonce only for an answer that is a page: a plain redirect has no use for 16 random bytes.
  switch (outcome.kind) {
    case 'disabled':
      return sendPage(reply, 404, renderDisabled({ nonce: createNonce() }));
    case 'expired':
      return sendAnswer(reply, expiredAnswer(ctx, outcome.expirationUrl));
    case 'locked':
      return sendPage(reply, 200, renderPassword({ nonce: createNonce() }));
    case 'ask-consent': {
      return sendPage(reply, 200, renderConsent({ nonce: createNonce(), vendors: link.pixels.map((p) => p.type) }));
    }
    case 'proceed':
      return sendAnswer(reply, await proceed(ctx, requestOf(request), state, outcome));
  }
}

/**
 * Step 7 and 8 of a visit that may go on: the cap, the destination (rotation turned), the answer
 * and the click. Synchronous when caps and rotation are in memory; the fast path relies on it.
 */
export function proceed(ctx: RedirectContext, request: VisitRequest, state: VisitState, outcome: Proceed): Eventually<Answer> {
  const { link, visitor } = state;
  if (outcome.cap === null) return choose(ctx, request, state, outcome);
  // HEAD asks what is there without visiting: no click, no cap, no turn of the rotation.
  // Bots and HEAD use no click of the cap, but once people have used it up they are told so too.
  if (request.method !== 'HEAD' && !visitor.isBot) {
    const open = ctx.quota.claim(link.id, outcome.cap, link.clicks);
    return open instanceof Promise
      ? open.then((o) => (o ? choose(ctx, request, state, outcome) : expiredAnswer(ctx, link.expirationUrl)))
      : open
        ? choose(ctx, request, state, outcome)
        : expiredAnswer(ctx, link.expirationUrl);
  }
  const used = ctx.quota.exhausted(link.id, outcome.cap, link.clicks);
  return used instanceof Promise
    ? used.then((u) => (u ? expiredAnswer(ctx, link.expirationUrl) : choose(ctx, request, state, outcome)))
    : used
      ? expiredAnswer(ctx, link.expirationUrl)
      : choose(ctx, request, state, outcome);
}

function choose(ctx: RedirectContext, request: VisitRequest, state: VisitState, outcome: Proceed): Eventually<Answer> {
  if (outcome.destination.kind === 'fixed') return finish(ctx, request, state, outcome, outcome.destination.url, undefined);
  const { entries } = outcome.destination;
  const { link } = state;
  // Only human visits turn the rotation: it splits people between the entries, and bots
  // in between (link unfurlers, crawlers) would otherwise skew who is sent where.
  if (request.method === 'HEAD' || state.visitor.isBot) {
    return finish(ctx, request, state, outcome, entries[(link.lastRotation + 1) % entries.length]!, undefined);
  }
  const position = ctx.rotation.next(link.id, entries.length, link.lastRotation);
  return position instanceof Promise
    ? position.then((p) => finish(ctx, request, state, outcome, entries[p]!, p))
    : finish(ctx, request, state, outcome, entries[position]!, position);
}

function finish(ctx: RedirectContext, request: VisitRequest, state: VisitState, outcome: Proceed, to: string, rotation: number | undefined): Answer {
  const destination = mergeQuery(to, request.query);
  const answer: Answer =
    outcome.pixels.length > 0 || state.viaForm
      ? {
          kind: 'page',
          status: 200,
          page: renderPixelRedirect({ destination, pixels: outcome.pixels, nonce: createNonce(), delayMs: outcome.pixels.length > 0 ? 1000 : 0 }),
        }
      : { kind: 'redirect', status: ctx.options.redirectStatus, location: destination };
  if (request.method !== 'HEAD') {
    const { link, visitor } = state;
    const at = ctx.clock.now();
    const stamp = ctx.stamper.stamp({
      linkId: link.id,
      at,
      timeZone: link.timezone,
      address: request.address,
      userAgent: request.userAgent,
      isBot: visitor.isBot,
    });
    ctx.sink.record(clickOf(link, visitor, at, stamp), rotation);
  }
  return answer;
}

function expiredAnswer(ctx: RedirectContext, expirationUrl: string | null): Answer {
  if (expirationUrl) return { kind: 'redirect', status: ctx.options.redirectStatus, location: expirationUrl };
  return { kind: 'page', status: 410, page: renderExpired({ nonce: createNonce() }) };
}

// Every field named, in Click's order: a spread of the stamp would build each click through
// V8's slow path for object literals (one shape transition per property, on every visit).
function clickOf(link: RedirectLink, visitor: Visitor, at: number, stamp: ClickStamp): Click {
  return {
    linkId: link.id,
    accountId: link.accountId,
    at,
    day: stamp.day,
    hour: stamp.hour,
    visitor: stamp.visitor,
    country: visitor.country,
    city: null,
    browser: visitor.browser,
    platform: visitor.platform,
    device: visitor.device,
    language: visitor.languages[0] ?? null,
    referrerHost: visitor.referrerHost,
    isBot: visitor.isBot,
  };
}
