import type { FastifyReply, FastifyRequest } from 'fastify';
import { TooManyAttemptsError, ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import type { RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { qrSvgDataUri } from '../../../qr/qr-data-uri.ts';
import { recoveryCodesPage, securityPage, type SecurityFormState } from './security-views.ts';

type Form = Record<string, unknown>;

const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name] : '');

type Sso = NonNullable<WebContext['security']['sso']>;

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  main: (view: View) => RawHtml,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return sendView(
    reply,
    status,
    appLayout(view, { title: view.t.security.title, main: main(view), section: '/account' }),
  );
}

/** The security page: two-factor's state (with the QR code while enrolling), sessions, single sign-on. */
async function show(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  state: SecurityFormState,
) {
  const { twoFactor, sso } = ctx.security;
  const viewer = viewerOf(request);
  const twoFactorStatus = await twoFactor.status(viewer.account);
  const data = {
    status: twoFactorStatus,
    qr: twoFactorStatus.state === 'enrolling' ? await qrSvgDataUri(twoFactorStatus.uri) : null,
    sessions: await ctx.signIn.list(viewer.account.id),
    currentSessionId: viewer.session.id,
    sso: sso
      ? {
          name: sso.name || viewOf(request, reply, ctx.web.csrfSecret).t.auth.sso.defaultName,
          identities: await sso.links.of(viewer.account.id),
        }
      : null,
  };
  return send(request, reply, ctx, status, (view) => securityPage(view, data, state));
}

/** A form's wrong code (422, beside its field) or too many guesses (429, with Retry-After). */
function refused(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  form: 'confirm' | 'disable' | 'regenerate',
  error: unknown,
) {
  if (error instanceof ValidationError) return show(request, reply, ctx, 422, { form, errors: error.fields });
  if (error instanceof TooManyAttemptsError) {
    reply.header('retry-after', String(error.retryAfterSeconds));
    const errors: FieldErrors = {
      code: [viewOf(request, reply, ctx.web.csrfSecret).t.common.errors.tooManyAttempts(error.retryAfterSeconds)],
    };
    return show(request, reply, ctx, 429, { form, errors });
  }
  throw error;
}

async function unlinkSso(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, sso: Sso) {
  const form = (request.body ?? {}) as Form;
  const viewer = viewerOf(request);
  try {
    await sso.links.unlink(viewer.account.id, { issuer: text(form, 'issuer'), subject: text(form, 'subject') });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return show(request, reply, ctx, 422, { form: 'sso', errors: error.fields });
  }
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  setFlash(reply, view.t.security.sso.unlinked(sso.name || view.t.auth.sso.defaultName));
  return seeOther(reply, '/account/security');
}

async function startTwoFactor(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  try {
    await ctx.security.twoFactor.begin(viewerOf(request).account);
  } catch (error) {
    // Already on (a second tab): the page says so.
    if (!(error instanceof ValidationError)) throw error;
  }
  return seeOther(reply, '/account/security#setup-title');
}

async function cancelTwoFactor(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  await ctx.security.twoFactor.cancel(viewerOf(request).account);
  setFlash(reply, viewOf(request, reply, ctx.web.csrfSecret).t.security.twoFactor.cancelled);
  return seeOther(reply, '/account/security');
}

// The recovery codes are the answer itself, not a redirect: they must never travel in a cookie or a URL.
async function confirmTwoFactor(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = (request.body ?? {}) as Form;
  try {
    const codes = await ctx.security.twoFactor.confirm(viewerOf(request).account, text(form, 'code'));
    return send(request, reply, ctx, 200, (view) => recoveryCodesPage(view, codes));
  } catch (error) {
    return refused(request, reply, ctx, 'confirm', error);
  }
}

async function regenerateCodes(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = (request.body ?? {}) as Form;
  try {
    const codes = await ctx.security.twoFactor.regenerate(viewerOf(request).account, text(form, 'code'));
    return send(request, reply, ctx, 200, (view) => recoveryCodesPage(view, codes));
  } catch (error) {
    return refused(request, reply, ctx, 'regenerate', error);
  }
}

async function disableTwoFactor(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = (request.body ?? {}) as Form;
  try {
    await ctx.security.twoFactor.disable(viewerOf(request).account, text(form, 'password'), text(form, 'code'));
  } catch (error) {
    return refused(request, reply, ctx, 'disable', error);
  }
  setFlash(reply, viewOf(request, reply, ctx.web.csrfSecret).t.security.twoFactor.disabled);
  return seeOther(reply, '/account/security');
}

/** /account/security: two-factor sign-in (set up, turn off), recovery codes, sessions. */
export const securityPages: WebFeature = (web, ctx: WebContext) => {
  const sso = ctx.security.sso;
  const base = '/account/security';
  web.get(base, (request, reply) => show(request, reply, ctx, 200, null));
  // Connecting starts at /account/security/sso/connect and comes back through /login/sso/callback (sso-pages.ts).
  if (sso) web.post(`${base}/sso/unlink`, (request, reply) => unlinkSso(request, reply, ctx, sso));
  web.post(`${base}/two-factor/start`, (request, reply) => startTwoFactor(request, reply, ctx));
  web.post(`${base}/two-factor/cancel`, (request, reply) => cancelTwoFactor(request, reply, ctx));
  web.post(`${base}/two-factor/confirm`, (request, reply) => confirmTwoFactor(request, reply, ctx));
  web.post(`${base}/recovery-codes`, (request, reply) => regenerateCodes(request, reply, ctx));
  web.post(`${base}/two-factor/disable`, (request, reply) => disableTwoFactor(request, reply, ctx));
};
