import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  FieldErrorBag,
  TooManyAttemptsError,
  ValidationError,
  faultsOfCheck,
  type FieldErrors,
} from '../../../../core/shared/errors.ts';
import { checkDeletionConfirmation, checkPassword } from '../../../../core/accounts/account-rules.ts';
import { SESSION_LIFETIME } from '../../../../core/accounts/sign-in-service.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import type { RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { clearSessionCookie, setSessionCookie } from '../../app/session-cookie.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';

/** Pages, not API: kept out of the OpenAPI document. */
const PAGE = { schema: { hide: true } };
import { accountPage, deletePage, text, type AccountPageState, type Form } from './account-views.ts';
import { apiKeyPages } from './api-keys-pages.ts';
import { limitAddress } from '../../../shared/request/client-address.ts';
import { webActor } from '../../app/audit-actor.ts';

/** The client as sign-in and sign-up limits count it (an IPv6 address by its /64), kept with the session. */
function clientOf(request: FastifyRequest) {
  return { address: limitAddress(request.ip), userAgent: request.headers['user-agent'] ?? null };
}

/** A session that outlives a day was a "keep me signed in" one. */
function remembered(session: { createdAt: number; expiresAt: number }): boolean {
  return session.expiresAt - session.createdAt > SESSION_LIFETIME.short;
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  title: (view: View) => string,
  main: (view: View) => RawHtml,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return sendView(reply, status, appLayout(view, { title: title(view), main: main(view), section: '/account' }));
}

async function showAccount(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  state: AccountPageState,
) {
  const viewer = viewerOf(request);
  const [sessions, digest] = await Promise.all([
    ctx.signIn.list(viewer.account.id),
    ctx.digestPreferences.wantsDigest(viewer.account.id),
  ]);
  return send(
    request,
    reply,
    ctx,
    status,
    (v) => v.t.account.title,
    (view) => accountPage(view, sessions, viewer.session.id, state, digest),
  );
}

function flashAndGo(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  message: (view: View) => string,
  to: string,
) {
  setFlash(reply, message(viewOf(request, reply, ctx.web.csrfSecret)));
  return seeOther(reply, to);
}

async function saveProfile(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const viewer = viewerOf(request);
  const form = (request.body ?? {}) as Form;
  try {
    const account = await ctx.accounts.updateProfile(
      viewer.account.id,
      { name: text(form, 'name'), email: text(form, 'email'), timezone: text(form, 'timezone') },
      webActor(request),
      clientOf(request),
    );
    // The flash is written in the new settings already (the layout reads the viewer's account).
    viewer.account = account;
    return flashAndGo(request, reply, ctx, (v) => v.t.account.profile.saved, '/account');
  } catch (error) {
    // A new email spends the sign-up limits: the sign-up form's message, on the email field.
    if (error instanceof TooManyAttemptsError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      const message = viewOf(request, reply, ctx.web.csrfSecret).t.auth.tooManySignUps(error.retryAfterSeconds);
      return showAccount(request, reply, ctx, 429, { form: 'profile', values: form, errors: { email: [message] } });
    }
    if (!(error instanceof ValidationError)) throw error;
    return showAccount(request, reply, ctx, 422, { form: 'profile', values: form, errors: error.fields });
  }
}

/** The broken-links digest turned on or off: ticked is "1" (after the hidden "0", so both may arrive). */
async function saveNotifications(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const viewer = viewerOf(request);
  const form = (request.body ?? {}) as Form;
  const sent = form.health_digest;
  // What a browser sends: the hidden "0" alone, or followed by the ticked box's "1".
  const on = sent === '1' || (Array.isArray(sent) && sent.length === 2 && sent[0] === '0' && sent[1] === '1');
  const off = sent === '0' || (Array.isArray(sent) && sent.length === 1 && sent[0] === '0');
  if (!on && !off) {
    const message = viewOf(request, reply, ctx.web.csrfSecret).t.account.notifications.invalid;
    return showAccount(request, reply, ctx, 422, { form: 'notifications', errors: { health_digest: [message] } });
  }
  await ctx.digestPreferences.setDigest(viewer.account.id, on);
  return flashAndGo(request, reply, ctx, (v) => v.t.account.notifications.saved, '/account#notifications-title');
}

async function changePassword(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const viewer = viewerOf(request);
  const form = (request.body ?? {}) as Form;
  const next = text(form, 'new_password');
  // The rules that need no database first: a typo in the confirmation costs no password guess.
  const bag = new FieldErrorBag();
  checkPassword(next, bag, 'new_password');
  if (next !== text(form, 'new_password_confirmation'))
    bag.add('new_password_confirmation', viewOf(request, reply, ctx.web.csrfSecret).t.account.password.mismatch);
  let errors: FieldErrors = await faultsOfCheck(async () => bag.throwIfAny());
  if (Object.keys(errors).length === 0) {
    try {
      const signedIn = await ctx.signIn.changePassword(
        viewer.account,
        text(form, 'current_password'),
        next,
        clientOf(request),
        remembered(viewer.session),
      );
      setSessionCookie(
        request,
        reply,
        signedIn.token,
        remembered(signedIn.session) ? SESSION_LIFETIME.remembered / 1000 : null,
      );
      request.viewer = { ...viewer, ...signedIn, token: signedIn.token };
      return flashAndGo(request, reply, ctx, (v) => v.t.account.password.changed, '/account');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors = error.fields;
    }
  }
  return showAccount(request, reply, ctx, 422, { form: 'password', errors });
}

async function endOtherSessions(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const viewer = viewerOf(request);
  await ctx.signIn.endOtherSessions(viewer.account.id, viewer.session.id);
  return flashAndGo(request, reply, ctx, (v) => v.t.account.sessions.endedOthers, '/account#sessions-title');
}

async function endSession(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const viewer = viewerOf(request);
  const { id } = request.params as IdParams;
  await ctx.signIn.endSession(viewer.account.id, id);
  if (id !== viewer.session.id)
    return flashAndGo(request, reply, ctx, (v) => v.t.account.sessions.ended, '/account#sessions-title');
  // This browser's own session: it is signed out, as by the header's button.
  clearSessionCookie(request, reply);
  request.viewer = null;
  return flashAndGo(request, reply, ctx, (v) => v.t.auth.signedOut, '/login');
}

const deleteTitle = (v: View) => v.t.account.remove.title;

/** The account deleted, once its owner typed the confirmation and the password (guesses limited). */
async function deleteAccount(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const viewer = viewerOf(request);
  const form = (request.body ?? {}) as Form;
  const bag = new FieldErrorBag();
  checkDeletionConfirmation(viewer.account, text(form, 'confirmation'), bag);
  const confirmed = await faultsOfCheck(async () => bag.throwIfAny());
  let errors: FieldErrors;
  try {
    const passwordFaults = await faultsOfCheck(() =>
      ctx.signIn.confirmPassword(viewer.account, text(form, 'password')),
    );
    errors = { ...passwordFaults, ...confirmed };
  } catch (error) {
    if (!(error instanceof TooManyAttemptsError)) throw error;
    reply.header('retry-after', String(error.retryAfterSeconds));
    const t = viewOf(request, reply, ctx.web.csrfSecret).t;
    const message = t.common.errors.tooManyAttempts(error.retryAfterSeconds);
    return send(request, reply, ctx, 429, deleteTitle, (view) => deletePage(view, form, { password: [message] }));
  }
  if (Object.keys(errors).length > 0)
    return send(request, reply, ctx, 422, deleteTitle, (view) => deletePage(view, form, errors));
  await ctx.accounts.deleteAccount(viewer.account.id);
  clearSessionCookie(request, reply);
  request.viewer = null;
  return flashAndGo(request, reply, ctx, (v) => v.t.account.remove.deleted, '/login');
}

/** /account: profile, notifications, password, sessions; /account/delete; and the API keys' pages. */
export const accountPages: WebFeature = (web, ctx: WebContext) => {
  web.get('/account', PAGE, (request, reply) => showAccount(request, reply, ctx, 200, null));
  web.post('/account/profile', PAGE, (request, reply) => saveProfile(request, reply, ctx));
  web.post('/account/notifications', PAGE, (request, reply) => saveNotifications(request, reply, ctx));
  web.post('/account/password', PAGE, (request, reply) => changePassword(request, reply, ctx));
  web.post('/account/sessions/end-others', PAGE, (request, reply) => endOtherSessions(request, reply, ctx));
  web.post('/account/sessions/:id/end', { schema: { params: IdParams, hide: true } }, (request, reply) =>
    endSession(request, reply, ctx),
  );
  web.get('/account/delete', PAGE, (request, reply) =>
    send(request, reply, ctx, 200, deleteTitle, (view) => deletePage(view, {})),
  );
  web.post('/account/delete', PAGE, (request, reply) => deleteAccount(request, reply, ctx));

  apiKeyPages(web, ctx);
};
