import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  FieldErrorBag,
  TooManyAttemptsError,
  UnauthenticatedError,
  ValidationError,
  faultsOfCheck,
  type FieldErrors,
} from '../../../../core/shared/errors.ts';
import { checkPassword } from '../../../../core/accounts/account-rules.ts';
import { messages } from '../../../../core/shared/messages.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { csrfField, errorSummary, textField } from '../../ui/components.ts';
import { safeNext, seeOther, sendView } from '../../app/respond.ts';
import { challengeTokenOf, clearChallengeCookie } from '../../app/session-cookie.ts';
import { setFlash, viewOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { limitAddress } from '../../../shared/request/client-address.ts';
import { clientOf, startSession } from '../auth/auth-pages.ts';

type Form = Record<string, unknown>;

const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name] : '');

const TokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) });
type TokenParams = Static<typeof TokenParams>;

const PUBLIC = { config: { access: 'public' as const } };

function codeForm(view: View, next: string, errors?: FieldErrors): RawHtml {
  const s = view.t.security.steps;
  return html`<h1>${s.codeTitle}</h1>
${errorSummary(view, errors)}
<p>${s.codeIntro}</p>
<form method="post" action="/login/two-factor" class="stack" novalidate>
${csrfField(view)}
<input type="hidden" name="next" value="${next}">
${textField({ name: 'code', label: s.code, hint: s.codeHint, errors, autocomplete: 'one-time-code', required: true, maxlength: 64 })}
<div class="actions"><button type="submit">${s.verify}</button></div>
</form>
<p class="muted">${s.lostPhone}</p>
<p><a href="/login">${s.startOver}</a></p>`;
}

// Without a mail server the link goes only to the log, so the page says who can hand it over.
function forgotIntro(view: View, mailed: boolean): RawHtml {
  const s = view.t.security.steps;
  if (mailed) return html`<p>${s.forgotIntro}</p>`;
  return html`<p>${s.noMailIntro}</p>
<p><code>${s.noMailCommand}</code></p>
<p>${s.noMailForm}</p>`;
}

function forgotForm(view: View, mailed: boolean, values: Form, errors?: FieldErrors): RawHtml {
  const s = view.t.security.steps;
  return html`<h1>${s.forgotTitle}</h1>
${errorSummary(view, errors)}
${forgotIntro(view, mailed)}
<form method="post" action="/login/forgot" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'email', label: s.email, type: 'email', value: text(values, 'email'), errors, autocomplete: 'email', required: true, maxlength: 255 })}
<div class="actions"><button type="submit">${s.send}</button></div>
</form>
<p>${s.remembered} <a href="/login">${s.backToSignIn}</a></p>`;
}

function resetForm(view: View, token: string, errors?: FieldErrors): RawHtml {
  const s = view.t.security.steps;
  return html`<h1>${s.resetTitle}</h1>
${errorSummary(view, errors)}
<p>${s.resetIntro}</p>
<form method="post" action="/login/reset/${token}" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'password', label: s.password, type: 'password', hint: s.passwordHint, errors, autocomplete: 'new-password', required: true })}
${textField({ name: 'password_confirmation', label: s.confirmation, type: 'password', errors, autocomplete: 'new-password', required: true })}
<div class="actions"><button type="submit">${s.save}</button></div>
</form>`;
}

function deadLink(view: View): RawHtml {
  const s = view.t.security.steps;
  return html`<h1>${s.deadTitle}</h1>
<p>${s.dead} <a href="/login/forgot">${s.askAgain}</a></p>`;
}

function page(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  title: (view: View) => string,
  main: (view: View) => RawHtml,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  return sendView(reply, status, appLayout(view, { title: title(view), main: main(view), narrow: true }));
}

const mailed = (ctx: WebContext): boolean => ctx.security.mailed ?? true;
const codeTitle = (view: View) => view.t.security.steps.codeTitle;
const forgotTitle = (view: View) => view.t.security.steps.forgotTitle;
const resetTitle = (view: View) => view.t.security.steps.resetTitle;
const stepsOf = (request: FastifyRequest, reply: FastifyReply, ctx: WebContext) =>
  viewOf(request, reply, ctx.web.csrfSecret).t.security.steps;

/** The challenge is gone (or never was): back to the password, `next` kept. */
function backToPassword(request: FastifyRequest, reply: FastifyReply, ctx: WebContext, next: string) {
  clearChallengeCookie(request, reply);
  setFlash(reply, stepsOf(request, reply, ctx).expired);
  return seeOther(reply, `/login?next=${encodeURIComponent(next)}`);
}

async function showCodeForm(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const next = safeNext((request.query as Form).next);
  if (request.viewer) return seeOther(reply, next);
  const token = challengeTokenOf(request);
  if (token === null || !(await ctx.security.twoStep.pending(token))) return backToPassword(request, reply, ctx, next);
  return page(request, reply, ctx, 200, codeTitle, (view) => codeForm(view, next));
}

async function completeTwoStep(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = (request.body ?? {}) as Form;
  const next = safeNext(form.next);
  const token = challengeTokenOf(request);
  if (token === null) return backToPassword(request, reply, ctx, next);
  try {
    const { signedIn, remember } = await ctx.security.twoStep.complete(token, text(form, 'code'), clientOf(request));
    clearChallengeCookie(request, reply);
    startSession(request, reply, signedIn, remember);
    return seeOther(reply, next);
  } catch (error) {
    if (error instanceof UnauthenticatedError) return backToPassword(request, reply, ctx, next);
    if (error instanceof ValidationError)
      return page(request, reply, ctx, 422, codeTitle, (view) => codeForm(view, next, error.fields));
    if (error instanceof TooManyAttemptsError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return page(request, reply, ctx, 429, codeTitle, (view) =>
        codeForm(view, next, { code: [view.t.common.errors.tooManyAttempts(error.retryAfterSeconds)] }),
      );
    }
    throw error;
  }
}

// The same answer whether the email has an account or not; the mail leaves after it.
async function askForReset(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const form = (request.body ?? {}) as Form;
  const email = text(form, 'email');
  if (email.trim() === '')
    return page(request, reply, ctx, 422, forgotTitle, (view) =>
      forgotForm(view, mailed(ctx), form, { email: [messages.required('email')] }),
    );
  try {
    await ctx.security.resets.request(email, limitAddress(request.ip));
  } catch (error) {
    if (!(error instanceof TooManyAttemptsError)) throw error;
    reply.header('retry-after', String(error.retryAfterSeconds));
    return page(request, reply, ctx, 429, forgotTitle, (view) =>
      forgotForm(view, mailed(ctx), form, { email: [view.t.common.errors.tooManyAttempts(error.retryAfterSeconds)] }),
    );
  }
  const steps = stepsOf(request, reply, ctx);
  setFlash(reply, mailed(ctx) ? steps.sent : steps.noMailSent);
  return seeOther(reply, '/login');
}

const dead = (request: FastifyRequest, reply: FastifyReply, ctx: WebContext) =>
  page(request, reply, ctx, 410, (view) => view.t.security.steps.deadTitle, deadLink);

async function showResetForm(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { token } = request.params as TokenParams;
  if (!(await ctx.security.resets.usable(token))) return dead(request, reply, ctx);
  return page(request, reply, ctx, 200, resetTitle, (view) => resetForm(view, token));
}

async function resetPassword(request: FastifyRequest, reply: FastifyReply, ctx: WebContext) {
  const { token } = request.params as TokenParams;
  const form = (request.body ?? {}) as Form;
  const password = text(form, 'password');
  const bag = new FieldErrorBag();
  checkPassword(password, bag);
  if (password !== text(form, 'password_confirmation'))
    bag.add('password_confirmation', stepsOf(request, reply, ctx).mismatch);
  let errors = await faultsOfCheck(async () => bag.throwIfAny());
  if (Object.keys(errors).length === 0) {
    try {
      const account = await ctx.security.resets.reset(token, password);
      if (!account) return dead(request, reply, ctx);
      setFlash(reply, stepsOf(request, reply, ctx).done);
      return seeOther(reply, '/login');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors = error.fields;
    }
  }
  return page(request, reply, ctx, 422, resetTitle, (view) => resetForm(view, token, errors));
}

/**
 * The sign-in steps besides the password: the two-factor code (/login/two-factor), asking for a
 * reset link (/login/forgot) and using it (/login/reset/{token}). All work signed out.
 */
export const loginStepsPages: WebFeature = (web, ctx: WebContext) => {
  const byToken = { ...PUBLIC, schema: { params: TokenParams } };
  web.get('/login/two-factor', PUBLIC, (request, reply) => showCodeForm(request, reply, ctx));
  web.post('/login/two-factor', PUBLIC, (request, reply) => completeTwoStep(request, reply, ctx));
  web.get('/login/forgot', PUBLIC, (request, reply) =>
    page(request, reply, ctx, 200, forgotTitle, (view) => forgotForm(view, mailed(ctx), {})),
  );
  web.post('/login/forgot', PUBLIC, (request, reply) => askForReset(request, reply, ctx));
  web.get('/login/reset/:token', byToken, (request, reply) => showResetForm(request, reply, ctx));
  web.post('/login/reset/:token', byToken, (request, reply) => resetPassword(request, reply, ctx));
};
