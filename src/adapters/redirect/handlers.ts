import type { FastifyReply, FastifyRequest } from 'fastify';
import { passwordAttemptKey } from '../../core/redirect/attempt-limiter.ts';
import type { RedirectLink } from '../../core/redirect/redirect-link.ts';
import { createNonce } from './pages/csp.ts';
import { renderNotFound } from './pages/not-found.ts';
import { renderPassword } from './pages/password.ts';
import { renderPreview } from './pages/preview.ts';
import { renderDisabled } from './pages/disabled.ts';
import { messagePage } from './pages/message-page.ts';
import { hostnameOf, limitAddress } from '../shared/request/client-address.ts';
import { readCookies } from './cookies.ts';
import { sendAnswer, sendPage, sendRedirect, type Answer } from './answer.ts';
import { notFoundAnswer, visitAnswer, type PostedForm } from './visit-answer.ts';
import { privacyUrlOf, type RedirectContext } from './visit-context.ts';

type AliasRequest = FastifyRequest<{ Params: { alias: string } }>;

/** The public side of linkpix: what a visitor meets at /{alias} on the app or a custom domain. */
export function redirectHandlers(ctx: RedirectContext) {
  return {
    visit: (request: AliasRequest, reply: FastifyReply) => visit(ctx, request, reply),
    submit: (request: AliasRequest, reply: FastifyReply) => submit(ctx, request, reply),
    preview: (request: AliasRequest, reply: FastifyReply) => preview(ctx, request, reply),
    root: (request: FastifyRequest, reply: FastifyReply) => root(ctx, request, reply),
    domainRoot: (request: FastifyRequest, reply: FastifyReply) => domainRoot(ctx, request, reply),
  };
}

function hostOf(request: FastifyRequest): string {
  return hostnameOf(request.host);
}

/** The link, or null once the not-found answer of this host is sent. */
async function find(ctx: RedirectContext, request: AliasRequest, reply: FastifyReply): Promise<RedirectLink | null> {
  const host = hostOf(request);
  const link = await ctx.source.find(host, request.params.alias);
  if (link === null) sendAnswer(reply, await notFoundAnswer(ctx, host));
  return link;
}

/** The visit's one answer (visit-answer.ts), written through Fastify. */
async function answer(
  ctx: RedirectContext,
  request: AliasRequest,
  reply: FastifyReply,
  link: RedirectLink,
  form: PostedForm | null,
): Promise<FastifyReply> {
  const answered = visitAnswer(ctx, link, request, form);
  return sendAnswer(reply, answered instanceof Promise ? await answered : answered);
}

/** GET and HEAD /{alias} of a link the door did not answer (not cached, or the door is off). */
async function visit(ctx: RedirectContext, request: AliasRequest, reply: FastifyReply): Promise<FastifyReply> {
  const link = await find(ctx, request, reply);
  if (!link) return reply;
  return answer(ctx, request, reply, link, null);
}

/** The password form and the consent buttons post back to the link's own URL. */
async function submit(ctx: RedirectContext, request: AliasRequest, reply: FastifyReply): Promise<FastifyReply> {
  const link = await find(ctx, request, reply);
  if (!link) return reply;
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (body.consent === 'yes' || body.consent === 'no')
    return answer(ctx, request, reply, link, { consent: body.consent });
  if (link.passwordHash === null || typeof body.password !== 'string') return answer(ctx, request, reply, link, null);
  const refused = await tryPassword(ctx, request, link, body.password);
  if (refused !== null) return sendAnswer(reply, refused);
  return answer(ctx, request, reply, link, { unlocked: true });
}

/** /{alias}/+ shows where a link goes without going there (and without a click). */
async function preview(ctx: RedirectContext, request: AliasRequest, reply: FastifyReply): Promise<FastifyReply> {
  const link = await find(ctx, request, reply);
  if (!link) return reply;
  const nonce = createNonce();
  if (link.disabled) return sendPage(reply, 404, renderDisabled({ nonce }));
  // As on /{alias}: a POST without a password field is read as a GET, not as a wrong guess.
  const body = (request.body ?? {}) as Record<string, unknown>;
  let unlocked = link.passwordHash !== null && ctx.unlock.isUnlocked(readCookies(request.headers.cookie), link);
  if (request.method === 'POST' && link.passwordHash !== null && typeof body.password === 'string') {
    const refused = await tryPassword(ctx, request, link, body.password);
    if (refused !== null) return sendAnswer(reply, refused);
    reply.header('set-cookie', ctx.unlock.serialize({ id: link.id, passwordHash: link.passwordHash }));
    unlocked = true;
  }
  // The destination is what a password protects: the preview asks for it too.
  if (link.passwordHash !== null && !unlocked)
    return sendPage(reply, 200, renderPassword({ nonce, privacyUrl: privacyUrlOf(ctx) }));
  // A default-domain link found through another host name (an IP, a load balancer's name)
  // still has APP_URL as its short URL.
  const base = link.domainId === null ? ctx.options.appUrl : `${ctx.options.domainScheme}://${hostOf(request)}`;
  return sendPage(
    reply,
    200,
    renderPreview({ nonce, shortUrl: `${base}/${link.alias}`, destination: link.url, title: link.title }),
  );
}

/** The root of a custom domain goes to its index page; the app's own root shows a short page. */
async function root(ctx: RedirectContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (await domainRoot(ctx, request, reply)) return reply;
  return sendPage(
    reply,
    200,
    messagePage(createNonce(), 'linkpix', ['Short links and tracking pixels.', 'The API is documented at /docs.']),
  );
}

/** A custom domain's root: its index page, else its 404. False (nothing answered) on any other host. */
async function domainRoot(ctx: RedirectContext, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const host = hostOf(request);
  const domain = ctx.options.appHosts.has(host) ? null : await ctx.source.domain(host);
  if (domain?.indexPage) sendRedirect(reply, ctx.options.redirectStatus, domain.indexPage);
  else if (domain) sendPage(reply, 404, renderNotFound({ nonce: createNonce() }));
  return domain !== null;
}

/**
 * Checks a password under the attempt limit: null when it is right, else the answer (wrong or
 * rate-limited). The attempt is counted before the hash is computed: guesses sent at once must
 * not all pass, and each costs a memory-hard hash.
 */
async function tryPassword(
  ctx: RedirectContext,
  request: FastifyRequest,
  link: RedirectLink,
  password: string,
): Promise<Answer | null> {
  const key = passwordAttemptKey(limitAddress(request.ip), link.id);
  const nonce = createNonce();
  const attempt = await ctx.attempts.consume(key);
  if (!attempt.allowed) {
    const state = { kind: 'rate-limited' as const, retryAfterSeconds: attempt.retryAfterSeconds };
    return {
      kind: 'page',
      status: 429,
      page: renderPassword({ nonce, state, privacyUrl: privacyUrlOf(ctx) }),
      headers: { 'retry-after': String(attempt.retryAfterSeconds) },
    };
  }
  if (!(await ctx.verifyPassword(password, link.passwordHash!)))
    return {
      kind: 'page',
      status: 403,
      page: renderPassword({ nonce, state: { kind: 'wrong' }, privacyUrl: privacyUrlOf(ctx) }),
    };
  await ctx.attempts.reset(key);
  return null;
}
