import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { TooManyAttemptsError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { messages } from '../../../../core/shared/messages.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { csrfField, errorSummary, textField } from '../../ui/components.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { limitAddress } from '../../../shared/request/client-address.ts';

type Form = Record<string, unknown>;
const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name] : '');

const TokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) });
type TokenParams = Static<typeof TokenParams>;
const PUBLIC = { config: { access: 'public' as const } };

/** Where a sign-up waits for its email's proof: what to do, and a resend form. */
function waitPage(view: View, values: Form, errors?: FieldErrors): RawHtml {
  const v = view.t.security.verify;
  return html`<h1>${v.title}</h1>
${errorSummary(view, errors)}
<p>${v.intro}</p>
<form method="post" action="/signup/verify" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'email', label: v.email, type: 'email', value: text(values, 'email'), errors, autocomplete: 'email', required: true, maxlength: 255 })}
<div class="actions"><button type="submit">${v.resend}</button></div>
</form>
<p>${v.confirmedAlready} <a href="/login">${v.backToSignIn}</a></p>`;
}

/** The link's page: a button, so that a mail scanner opening links verifies nothing. */
function confirmPage(view: View, token: string): RawHtml {
  const v = view.t.security.verify;
  return html`<h1>${v.confirmTitle}</h1>
<form method="post" action="/signup/verify/${token}" class="stack">
${csrfField(view)}
<div class="actions"><button type="submit">${v.confirm}</button></div>
</form>`;
}

function deadPage(view: View): RawHtml {
  const v = view.t.security.verify;
  return html`<h1>${v.deadTitle}</h1>
<p>${v.dead} <a href="/signup/verify">${v.askAgain}</a></p>`;
}

/** EMAIL_VERIFICATION=required (docs/design/teams.md): /signup/verify and its links; no routes when off. */
export const verifyEmailPages: WebFeature = (web, ctx: WebContext) => {
  const verification = ctx.security.verification;
  if (verification === null) return;
  const secret = ctx.web.csrfSecret;
  const page = (request: FastifyRequest, reply: FastifyReply, status: number, main: (view: View) => RawHtml) => {
    const view = viewOf(request, reply, secret);
    return sendView(
      reply,
      status,
      appLayout(view, { title: view.t.security.verify.title, main: main(view), narrow: true, section: '/signup' }),
    );
  };

  web.get('/signup/verify', PUBLIC, async (request, reply) =>
    page(request, reply, 200, (view) => waitPage(view, request.query as Form)),
  );

  // The same answer whether the email awaits a link or not; the mail leaves after it.
  web.post('/signup/verify', PUBLIC, async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    const email = text(form, 'email');
    if (email.trim() === '')
      return page(request, reply, 422, (view) => waitPage(view, form, { email: [messages.required('email')] }));
    try {
      await verification.resend(email, limitAddress(request.ip));
    } catch (error) {
      if (!(error instanceof TooManyAttemptsError)) throw error;
      reply.header('retry-after', String(error.retryAfterSeconds));
      return page(request, reply, 429, (view) =>
        waitPage(view, form, { email: [view.t.common.errors.tooManyAttempts(error.retryAfterSeconds)] }),
      );
    }
    setFlash(reply, viewOf(request, reply, secret).t.security.verify.sent);
    return seeOther(reply, '/signup/verify');
  });

  web.get('/signup/verify/:token', { ...PUBLIC, schema: { params: TokenParams } }, async (request, reply) =>
    page(request, reply, 200, (view) => confirmPage(view, (request.params as TokenParams).token)),
  );

  web.post('/signup/verify/:token', { ...PUBLIC, schema: { params: TokenParams } }, async (request, reply) => {
    if (!(await verification.verify((request.params as TokenParams).token))) return page(request, reply, 410, deadPage);
    setFlash(reply, viewOf(request, reply, secret).t.security.verify.done);
    return seeOther(reply, '/login');
  });
};
