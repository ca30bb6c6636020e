import type { FastifyReply, FastifyRequest } from 'fastify';
import { passwordAttemptKey } from '../../../core/redirect/attempt-limiter.ts';
import type { RedirectLink } from '../../../core/redirect/redirect-link.ts';
import { createNonce } from '../../web/pages/csp.ts';
import { renderNotFound } from '../../web/pages/not-found.ts';
import { renderPassword } from '../../web/pages/password.ts';
import { renderPreview } from '../../web/pages/preview.ts';
import { renderDisabled } from '../../web/pages/disabled.ts';
import { messagePage } from '../../web/pages/message-page.ts';
import { hostnameOf, limitAddress } from '../client-address.ts';
import { consentCookie, readCookies } from './cookies.ts';
import { sendPage, sendRedirect } from './respond.ts';
import { continueVisit, visitorOf } from './visit.ts';
import type { RedirectContext } from './visit-context.ts';

type AliasRequest = FastifyRequest<{ Params: { alias: string } }>;

function hostOf(request: FastifyRequest): string {
  return hostnameOf(request.host);
}

/** The public side of linkpix: what a visitor meets at /{alias} on the app or a custom domain. */
export function redirectHandlers(ctx: RedirectContext) {
  /** Step 1: the link, or the not-found answer of this host. */
  async function find(request: AliasRequest, reply: FastifyReply): Promise<RedirectLink | null> {
    const host = hostOf(request);
    const link = await ctx.source.find(host, request.params.alias);
    if (link) return link;
    const domain = ctx.options.appHosts.has(host) ? null : await ctx.source.domain(host);
    if (domain?.notFoundPage) sendRedirect(reply, ctx.options.redirectStatus, domain.notFoundPage);
    else sendPage(reply, 404, renderNotFound({ nonce: createNonce() }));
    return null;
  }

  /** A custom domain's root: its index page, else its 404. False (nothing answered) on any other host. */
  async function domainRoot(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const host = hostOf(request);
    const domain = ctx.options.appHosts.has(host) ? null : await ctx.source.domain(host);
    if (domain?.indexPage) sendRedirect(reply, ctx.options.redirectStatus, domain.indexPage);
    else if (domain) sendPage(reply, 404, renderNotFound({ nonce: createNonce() }));
    return domain !== null;
  }

  async function visit(request: AliasRequest, reply: FastifyReply) {
    const link = await find(request, reply);
    if (!link) return reply;
    const cookies = link.passwordHash !== null || link.pixels.length > 0 ? readCookies(request.headers.cookie) : {};
    return continueVisit(ctx, request, reply, { link, visitor: visitorOf(request, ctx), cookies, viaForm: false });
  }

  return {
    visit,

    /** The password form and the consent buttons post back to the link's own URL. */
    submit: async (request: AliasRequest, reply: FastifyReply) => {
      const link = await find(request, reply);
      if (!link) return reply;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const cookies = readCookies(request.headers.cookie);
      const visitor = visitorOf(request, ctx);
      if (body.consent === 'yes' || body.consent === 'no') {
        reply.header('set-cookie', consentCookie(body.consent, ctx.options.secureCookies));
        return continueVisit(ctx, request, reply, { link, visitor, cookies, viaForm: true, consent: body.consent });
      }
      if (link.passwordHash === null || typeof body.password !== 'string') return visit(request, reply);
      const unlocked = await tryPassword(request, reply, link, body.password);
      if (!unlocked) return reply;
      cookies[ctx.unlock.name(link.id)] = unlocked;
      return continueVisit(ctx, request, reply, { link, visitor, cookies, viaForm: true });
    },

    /** /{alias}/+ shows where a link goes without going there (and without a click). */
    preview: async (request: AliasRequest, reply: FastifyReply) => {
      const link = await find(request, reply);
      if (!link) return reply;
      const nonce = createNonce();
      if (link.disabled) return sendPage(reply, 404, renderDisabled({ nonce }));
      const cookies = readCookies(request.headers.cookie);
      // As on /{alias}: a POST without a password field is read as a GET, not as a wrong guess.
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (request.method === 'POST' && link.passwordHash !== null && typeof body.password === 'string') {
        const unlocked = await tryPassword(request, reply, link, body.password);
        if (!unlocked) return reply;
        cookies[ctx.unlock.name(link.id)] = unlocked;
      }
      // The destination is what a password protects: the preview asks for it too.
      if (link.passwordHash !== null && !ctx.unlock.isUnlocked(cookies, link)) {
        return sendPage(reply, 200, renderPassword({ nonce }));
      }
      // A default-domain link found through another host name (an IP, a load balancer's name)
      // still has APP_URL as its short URL.
      const base = link.domainId === null ? ctx.options.appUrl : `${ctx.options.domainScheme}://${hostOf(request)}`;
      return sendPage(reply, 200, renderPreview({ nonce, shortUrl: `${base}/${link.alias}`, destination: link.url, title: link.title }));
    },

    /** The root of a custom domain goes to its index page; the app's own root shows a short page. */
    root: async (request: FastifyRequest, reply: FastifyReply) => {
      if (await domainRoot(request, reply)) return reply;
      return sendPage(reply, 200, messagePage(createNonce(), 'linkpix', ['Short links and tracking pixels.', 'The API is documented at /docs.']));
    },
    domainRoot,
  };

  /**
   * Checks a password under the attempt limit. Returns the unlock cookie's value on success;
   * otherwise it has answered (wrong or rate-limited) and returns null. The attempt is counted
   * before the hash is computed: guesses sent at once must not all pass, and each costs a
   * memory-hard hash.
   */
  async function tryPassword(request: FastifyRequest, reply: FastifyReply, link: RedirectLink, password: string) {
    const key = passwordAttemptKey(limitAddress(request.ip), link.id);
    const nonce = createNonce();
    const attempt = await ctx.attempts.consume(key);
    if (!attempt.allowed) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      sendPage(reply, 429, renderPassword({ nonce, state: { kind: 'rate-limited', retryAfterSeconds: attempt.retryAfterSeconds } }));
      return null;
    }
    if (!(await ctx.verifyPassword(password, link.passwordHash!))) {
      sendPage(reply, 403, renderPassword({ nonce, state: { kind: 'wrong' } }));
      return null;
    }
    await ctx.attempts.reset(key);
    const cookie = ctx.unlock.serialize({ id: link.id, passwordHash: link.passwordHash! });
    reply.header('set-cookie', cookie);
    return cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
  }
}
