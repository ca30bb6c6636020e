import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ForbiddenError,
  TooManyAttemptsError,
  UnauthenticatedError,
  ValidationError,
  type FieldErrors,
} from '../../../../core/shared/errors.ts';
import { EMAIL_NOT_VERIFIED, SESSION_LIFETIME, type SignedIn } from '../../../../core/accounts/sign-in-service.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { checkbox, csrfField, errorSummary, textField } from '../../ui/components.ts';
import { safeNext, seeOther, sendView } from '../../app/respond.ts';
import { clearSessionCookie, setChallengeCookie, setSessionCookie } from '../../app/session-cookie.ts';
import { CHALLENGE_LIFETIME_MS } from '../../../../core/security/two-step-sign-in.ts';
import { setFlash, setTheme, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { SsoServices, WebContext } from '../../app/web-context.ts';
import { invitedEmail } from './invited-email.ts';
import { ssoLink } from './sso-link.ts';
import type { WebFeature } from '../feature.ts';
import { limitAddress } from '../../../shared/request/client-address.ts';

type Form = Record<string, unknown>;

const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name] : '');

/** The sign-up form; `invited`, the address an invitation fixed, shown locked in place of the typed one. */
function signUpForm(
  view: View,
  values: Form,
  errors: FieldErrors | undefined,
  sso: SsoServices | null | undefined,
  invited: string | null,
): RawHtml {
  const a = view.t.auth;
  const email =
    invited === null ? { value: text(values, 'email') } : { value: invited, readonly: true, hint: a.invitedEmailHint };
  return html`<h1>${a.signUpTitle}</h1>
${errorSummary(view, errors)}
${ssoLink(view, sso, undefined)}
<form method="post" action="/signup" class="stack" novalidate>
${csrfField(view)}
${values.next === undefined ? '' : html`<input type="hidden" name="next" value="${safeNext(values.next)}">`}
${textField({ name: 'name', label: a.name, value: text(values, 'name'), errors, autocomplete: 'name', maxlength: 255 })}
${textField({ name: 'email', label: a.email, type: 'email', ...email, errors, autocomplete: 'email', required: true })}
${textField({ name: 'password', label: a.password, type: 'password', errors, autocomplete: 'new-password', hint: a.passwordHint, required: true })}
<div class="actions"><button type="submit">${a.signUp}</button></div>
</form>
<p>${a.haveAccount} <a href="/login">${a.signIn}</a></p>`;
}

function signInForm(view: View, values: Form, errors?: FieldErrors, sso?: SsoServices | null): RawHtml {
  const a = view.t.auth;
  return html`<h1>${a.signInTitle}</h1>
${errorSummary(view, errors)}
${ssoLink(view, sso, values.next)}
<form method="post" action="/login" class="stack" novalidate>
${csrfField(view)}
<input type="hidden" name="next" value="${safeNext(values.next)}">
${textField({ name: 'email', label: a.email, type: 'email', value: text(values, 'email'), errors, autocomplete: 'username', required: true })}
${textField({ name: 'password', label: a.password, type: 'password', errors, autocomplete: 'current-password', required: true })}
${checkbox({ name: 'remember', label: a.remember, checked: values.remember === '1' })}
<div class="actions"><button type="submit">${a.signIn}</button></div>
</form>
<p>${view.t.security.steps.forgotPrompt} <a href="/login/forgot">${view.t.security.steps.forgotLink}</a></p>
<p>${a.noAccount} <a href="/signup">${a.signUp}</a></p>`;
}

/** The new session's cookie: for the browser's life, or as long as a remembered session lasts. */
export function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  signedIn: SignedIn,
  remember: boolean,
): void {
  setSessionCookie(request, reply, signedIn.token, remember ? SESSION_LIFETIME.remembered / 1000 : null);
}

/** The client as sign-in and sign-up limits count it (an IPv6 address by its /64), kept with the session. */
export function clientOf(request: FastifyRequest) {
  return { address: limitAddress(request.ip), userAgent: request.headers['user-agent'] ?? null };
}

/** A narrow page of the sign-in family, its section the path it answers. */
function page(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  title: string,
  main: (view: View) => RawHtml,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return sendView(
    reply,
    status,
    appLayout(view, { title, main: main(view), narrow: true, section: request.url.split('?')[0] }),
  );
}

const closed = (view: View) => html`<h1>${view.t.auth.signUpTitle}</h1><p>${view.t.auth.signupClosed}</p>`;
const textsOf = (request: FastifyRequest, reply: FastifyReply, ctx: WebContext) =>
  viewOf(request, reply, ctx.web.csrfSecret).t;

async function showSignUp(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  // `next`: where to go once the account exists (an invitation's page).
  const next = (request.query as { next?: unknown }).next;
  if (request.viewer) return seeOther(reply, safeNext(next));
  const title = textsOf(request, reply, ctx).auth.signUpTitle;
  const values = typeof next === 'string' ? { next } : {};
  const invited = await invitedEmail(ctx, next);
  return page(request, reply, ctx, 200, title, (view) =>
    ctx.web.signup === 'open' ? signUpForm(view, values, undefined, ctx.security.sso, invited) : closed(view),
  );
}

async function signUp(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = (request.body ?? {}) as Form;
  const title = textsOf(request, reply, ctx).auth.signUpTitle;
  if (ctx.web.signup !== 'open') return page(request, reply, ctx, 403, title, closed);
  const invited = await invitedEmail(ctx, form.next);
  try {
    const email = invited ?? text(form, 'email');
    const input = { name: text(form, 'name'), email, password: text(form, 'password') };
    const verification = ctx.security.verification;
    if (verification !== null) {
      // EMAIL_VERIFICATION=required: stored unverified with its link mailed; no session until it is opened.
      const account = await ctx.signIn.register(input, clientOf(request));
      return seeOther(reply, `/signup/verify?email=${encodeURIComponent(account.email)}`);
    }
    const signedIn = await ctx.signIn.signUp(input, clientOf(request));
    startSession(request, reply, signedIn, false);
    setFlash(reply, textsOf(request, reply, ctx).auth.welcome);
    return seeOther(reply, safeNext(form.next));
  } catch (error) {
    if (error instanceof TooManyAttemptsError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return page(request, reply, ctx, 429, title, (view) =>
        signUpForm(
          view,
          form,
          { email: [view.t.auth.tooManySignUps(error.retryAfterSeconds)] },
          ctx.security.sso,
          invited,
        ),
      );
    }
    if (!(error instanceof ValidationError)) throw error;
    return page(request, reply, ctx, 422, title, (view) =>
      signUpForm(view, form, error.fields, ctx.security.sso, invited),
    );
  }
}

async function showSignIn(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const query = request.query as Form;
  if (request.viewer) return seeOther(reply, safeNext(query.next));
  const title = textsOf(request, reply, ctx).auth.signInTitle;
  return page(request, reply, ctx, 200, title, (view) =>
    signInForm(view, { next: query.next }, undefined, ctx.security.sso),
  );
}

/** The password step: a session, or (two-factor on) the challenge cookie and the code's page. */
async function signIn(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = (request.body ?? {}) as Form;
  const remember = form.remember === '1';
  const title = textsOf(request, reply, ctx).auth.signInTitle;
  try {
    const step = await ctx.security.twoStep.begin(
      text(form, 'email'),
      text(form, 'password'),
      clientOf(request),
      remember,
    );
    if (step.kind === 'code') {
      setChallengeCookie(request, reply, step.token, CHALLENGE_LIFETIME_MS / 1000);
      return seeOther(reply, `/login/two-factor?next=${encodeURIComponent(safeNext(form.next))}`);
    }
    startSession(request, reply, step.signedIn, remember);
    return seeOther(reply, safeNext(form.next));
  } catch (error) {
    return signInRefused(request, reply, ctx, error, form, title);
  }
}

/** Why a sign-in failed, said on the form (or, for an unverified email, on the verify page). */
async function signInRefused(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  error: unknown,
  form: Form,
  title: string,
) {
  if (error instanceof UnauthenticatedError) {
    return page(request, reply, ctx, 422, title, (view) =>
      signInForm(view, form, { email: [view.t.auth.wrongCredentials] }, ctx.security.sso),
    );
  }
  if (error instanceof ForbiddenError && error.missing === EMAIL_NOT_VERIFIED) {
    setFlash(reply, textsOf(request, reply, ctx).security.verify.notVerified);
    return seeOther(reply, `/signup/verify?email=${encodeURIComponent(text(form, 'email').trim())}`);
  }
  if (error instanceof TooManyAttemptsError) {
    reply.header('retry-after', String(error.retryAfterSeconds));
    return page(request, reply, ctx, 429, title, (view) =>
      signInForm(
        view,
        form,
        { email: [view.t.common.errors.tooManyAttempts(error.retryAfterSeconds)] },
        ctx.security.sso,
      ),
    );
  }
  throw error;
}

async function signOut(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const viewer = viewerOf(request);
  await ctx.signIn.signOut(viewer.account.id, viewer.session.id);
  clearSessionCookie(request, reply);
  request.viewer = null;
  setFlash(reply, textsOf(request, reply, ctx).auth.signedOut);
  return seeOther(reply, '/login');
}

async function chooseTheme(request: FastifyRequest, reply: FastifyReply) {
  const form = (request.body ?? {}) as Form;
  const theme = form.theme === 'light' || form.theme === 'dark' ? form.theme : 'system';
  setTheme(reply, theme);
  return seeOther(reply, safeNext(form.next, '/'));
}

/** Sign-up, sign-in, sign-out and the theme switch. */
export const authPages: WebFeature = (web, ctx: WebContext) => {
  web.get('/signup', { config: { access: 'public' } }, (request, reply) => showSignUp(request, reply, ctx));
  web.post('/signup', { config: { access: 'public' } }, (request, reply) => signUp(request, reply, ctx));
  web.get('/login', { config: { access: 'public' } }, (request, reply) => showSignIn(request, reply, ctx));
  web.post('/login', { config: { access: 'public' } }, (request, reply) => signIn(request, reply, ctx));
  web.post('/logout', (request, reply) => signOut(request, reply, ctx));
  web.post('/theme', { config: { access: 'public', csrf: 'origin' } }, chooseTheme);
};
