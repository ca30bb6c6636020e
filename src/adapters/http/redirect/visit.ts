import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Click } from '../../../core/clicks/click.ts';
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
import { sendPage, sendRedirect } from './respond.ts';
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

export function queryOf(request: FastifyRequest): string {
  const i = request.url.indexOf('?');
  return i === -1 ? '' : request.url.slice(i + 1);
}

export function visitorOf(request: FastifyRequest, ctx: RedirectContext): Visitor {
  return visitorFrom({ ip: request.ip, headers: request.headers }, { countries: ctx.countries });
}

/** CONTRACT §7 steps 2–8 for a link that exists: resolve (pure) → respond → record. */
export async function continueVisit(
  ctx: RedirectContext, request: FastifyRequest, reply: FastifyReply, state: VisitState,
): Promise<FastifyReply> {
  const { link, visitor, cookies } = state;
  const outcome = resolveVisit(link, visitor, {
    now: ctx.clock.now(),
    unlocked: ctx.unlock.isUnlocked(cookies, link),
    consent: state.consent ?? consentOf(cookies),
    consentMode: ctx.options.consentMode,
  });
  // A nonce only for an answer that is a page: a plain redirect has no use for 16 random bytes.
  switch (outcome.kind) {
    case 'disabled': return sendPage(reply, 404, renderDisabled({ nonce: createNonce() }));
    case 'expired': return expired(ctx, reply, outcome.expirationUrl);
    case 'locked': return sendPage(reply, 200, renderPassword({ nonce: createNonce() }));
    case 'ask-consent': {
      return sendPage(reply, 200, renderConsent({ nonce: createNonce(), vendors: link.pixels.map((p) => p.type) }));
    }
    case 'proceed': return proceed(ctx, request, reply, state, outcome);
  }
}

async function proceed(
  ctx: RedirectContext, request: FastifyRequest, reply: FastifyReply, state: VisitState,
  outcome: Extract<VisitOutcome, { kind: 'proceed' }>,
): Promise<FastifyReply> {
  const { link, visitor } = state;
  // HEAD asks what is there without visiting: no click, no cap, no turn of the rotation.
  const counts = request.method !== 'HEAD';
  if (outcome.cap !== null) {
    // Bots and HEAD use no click of the cap, but once people have used it up they are told so too.
    const open = counts && !visitor.isBot
      ? await ctx.quota.claim(link.id, outcome.cap, link.clicks)
      : !(await ctx.quota.exhausted(link.id, outcome.cap, link.clicks));
    if (!open) return expired(ctx, reply, link.expirationUrl);
  }
  let destination: string;
  let rotation: number | undefined;
  if (outcome.destination.kind === 'fixed') destination = outcome.destination.url;
  else {
    const entries = outcome.destination.entries;
    // Only human visits turn the rotation: it splits people between the entries, and bots
    // in between (link unfurlers, crawlers) would otherwise skew who is sent where.
    const turns = counts && !visitor.isBot;
    const position = turns
      ? await ctx.rotation.next(link.id, entries.length, link.lastRotation)
      : (link.lastRotation + 1) % entries.length;
    if (turns) rotation = position;
    destination = entries[position]!;
  }
  destination = mergeQuery(destination, queryOf(request));
  if (outcome.pixels.length > 0 || state.viaForm) {
    sendPage(reply, 200, renderPixelRedirect({
      destination, pixels: outcome.pixels, nonce: createNonce(), delayMs: outcome.pixels.length > 0 ? 1000 : 0,
    }));
  } else {
    sendRedirect(reply, ctx.options.redirectStatus, destination);
  }
  if (counts) {
    const at = ctx.clock.now();
    const stamp = ctx.stamper.stamp({
      linkId: link.id, at, timeZone: link.timezone, address: request.ip, userAgent: request.headers['user-agent'] ?? '', isBot: visitor.isBot,
    });
    ctx.sink.record(clickOf(link, visitor, at, stamp), rotation);
  }
  return reply;
}

function expired(ctx: RedirectContext, reply: FastifyReply, expirationUrl: string | null): FastifyReply {
  if (expirationUrl) return sendRedirect(reply, ctx.options.redirectStatus, expirationUrl);
  return sendPage(reply, 410, renderExpired({ nonce: createNonce() }));
}

function clickOf(link: RedirectLink, visitor: Visitor, at: number, stamp: ClickStamp): Click {
  return {
    linkId: link.id, accountId: link.accountId, at, ...stamp, country: visitor.country, city: null,
    browser: visitor.browser, platform: visitor.platform, device: visitor.device,
    language: visitor.languages[0] ?? null, referrerHost: visitor.referrerHost, isBot: visitor.isBot,
  };
}

