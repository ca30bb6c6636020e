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

/** /account/security: two-factor sign-in (set up, turn off), recovery codes, sessions. */
export const securityPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;
  const { twoFactor, sso } = ctx.security;
  const send = (request: FastifyRequest, reply: FastifyReply, status: number, main: (view: View) => RawHtml) => {
    const view = viewOf(request, reply, secret);
    return sendView(
      reply,
      status,
      appLayout(view, { title: view.t.security.title, main: main(view), section: '/account' }),
    );
  };
  const show = async (request: FastifyRequest, reply: FastifyReply, status: number, state: SecurityFormState) => {
    const viewer = viewerOf(request);
    const twoFactorStatus = await twoFactor.status(viewer.account);
    const data = {
      status: twoFactorStatus,
      qr: twoFactorStatus.state === 'enrolling' ? await qrSvgDataUri(twoFactorStatus.uri) : null,
      sessions: await ctx.signIn.list(viewer.account.id),
      currentSessionId: viewer.session.id,
      sso: sso
        ? {
            name: sso.name || viewOf(request, reply, secret).t.auth.sso.defaultName,
            identities: await sso.links.of(viewer.account.id),
          }
        : null,
    };
    return send(request, reply, status, (view) => securityPage(view, data, state));
  };
  /** A form's wrong code (422, beside its field) or too many guesses (429, with Retry-After). */
  const refused = (
    request: FastifyRequest,
    reply: FastifyReply,
    form: 'confirm' | 'disable' | 'regenerate',
    error: unknown,
  ) => {
    if (error instanceof ValidationError) return show(request, reply, 422, { form, errors: error.fields });
    if (error instanceof TooManyAttemptsError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      const errors: FieldErrors = {
        code: [viewOf(request, reply, secret).t.common.errors.tooManyAttempts(error.retryAfterSeconds)],
      };
      return show(request, reply, 429, { form, errors });
    }
    throw error;
  };

  web.get('/account/security', async (request, reply) => show(request, reply, 200, null));

  // Connecting starts at /account/security/sso/connect and comes back through /login/sso/callback (sso-pages.ts).
  if (sso) {
    web.post('/account/security/sso/unlink', async (request, reply) => {
      const form = (request.body ?? {}) as Form;
      const viewer = viewerOf(request);
      try {
        await sso.links.unlink(viewer.account.id, { issuer: text(form, 'issuer'), subject: text(form, 'subject') });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return show(request, reply, 422, { form: 'sso', errors: error.fields });
      }
      const view = viewOf(request, reply, secret);
      setFlash(reply, view.t.security.sso.unlinked(sso.name || view.t.auth.sso.defaultName));
      return seeOther(reply, '/account/security');
    });
  }

  web.post('/account/security/two-factor/start', async (request, reply) => {
    try {
      await twoFactor.begin(viewerOf(request).account);
    } catch (error) {
      // Already on (a second tab): the page says so.
      if (!(error instanceof ValidationError)) throw error;
    }
    return seeOther(reply, '/account/security#setup-title');
  });

  web.post('/account/security/two-factor/cancel', async (request, reply) => {
    await twoFactor.cancel(viewerOf(request).account);
    setFlash(reply, viewOf(request, reply, secret).t.security.twoFactor.cancelled);
    return seeOther(reply, '/account/security');
  });

  // The recovery codes are the answer itself, not a redirect: they must never travel in a cookie or a URL.
  web.post('/account/security/two-factor/confirm', async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    try {
      const codes = await twoFactor.confirm(viewerOf(request).account, text(form, 'code'));
      return send(request, reply, 200, (view) => recoveryCodesPage(view, codes));
    } catch (error) {
      return refused(request, reply, 'confirm', error);
    }
  });

  web.post('/account/security/recovery-codes', async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    try {
      const codes = await twoFactor.regenerate(viewerOf(request).account, text(form, 'code'));
      return send(request, reply, 200, (view) => recoveryCodesPage(view, codes));
    } catch (error) {
      return refused(request, reply, 'regenerate', error);
    }
  });

  web.post('/account/security/two-factor/disable', async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    try {
      await twoFactor.disable(viewerOf(request).account, text(form, 'password'), text(form, 'code'));
    } catch (error) {
      return refused(request, reply, 'disable', error);
    }
    setFlash(reply, viewOf(request, reply, secret).t.security.twoFactor.disabled);
    return seeOther(reply, '/account/security');
  });
};
