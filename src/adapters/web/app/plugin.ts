import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyCookie } from '@fastify/cookie';
import {
  ForbiddenError,
  GoneError,
  NotFoundError,
  TooManyAttemptsError,
  UnavailableError,
  ValidationError,
} from '../../../core/shared/errors.ts';
import { serveAssets } from '../ui/assets.ts';
import { serveBrand } from '../ui/brand-routes.ts';
import { en } from '../i18n/en/index.ts';
import { isCrossSite } from './csrf.ts';
import { csrfCheck, isMultipart } from './csrf-check.ts';
import { clearSessionCookie, sessionTokenOf } from './session-cookie.ts';
import { sendErrorPage } from './error-pages.ts';
import { installWebRateLimit } from './web-rate-limit.ts';
import { installTwoFactorGate } from './two-factor-gate.ts';
import { installOutagePages } from './outage-pages.ts';
import { seeOther } from './respond.ts';
import type { WebContext } from './web-context.ts';
import { webRuleOf, type WebPolicedRoute } from './web-route-actions.ts';
import { currentWorkspace } from './current-workspace.ts';
import { refuseByPolicy } from './web-policy.ts';
import { WEB_FEATURES } from '../features/index.ts';
import { homePage, type DomainRoot } from '../features/home/home-page.ts';
import { QR_RENDERER } from '../../qr/qr-renderer.ts';
import { fieldErrorsOf } from '../../shared/input/validation-errors.ts';

/** Who may open a route: anyone, a signed-in account (the default), or an operator. */
export type Access = 'public' | 'account' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * 'origin': only the cross-site check, no token (a form whose worst misuse is harmless, the theme).
     * 'multipart': a multipart body's token is checked by the route, after reading it (csrfCheck).
     */
    csrf?: 'token' | 'origin' | 'multipart';
  }
  interface FastifyInstance {
    /** Every web route and what decides it (docs/design/web.md); the policy matrix test walks it. */
    webPolicedRoutes: WebPolicedRoute[];
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The web app, in a scope of its own (its cookie parser and hooks never run on the redirect or
 * the API): sessions first, then who may see the route, then the CSRF check of anything that
 * changes state, then the route. Every route is for signed-in accounts unless it says otherwise.
 */
export async function registerWebApp(app: FastifyInstance, ctx: WebContext, domainRoot?: DomainRoot): Promise<void> {
  serveAssets(app);
  serveBrand(app, en.common.appName);
  app.decorate('webPolicedRoutes', [] as WebPolicedRoute[]);
  await app.register(async (web) => {
    listPolicedRoutes(app, web);
    await web.register(fastifyCookie);
    web.decorateRequest('viewer', null);
    web.decorateRequest('formState', null);
    const secret = ctx.web.csrfSecret;
    const checkToken = csrfCheck(secret);
    // First: a start from the redirect snapshot reads no session, and serves no page.
    if (ctx.web.outage) installOutagePages(web, secret, domainRoot);

    web.addHook('onRequest', async (request, reply) => {
      const token = sessionTokenOf(request);
      if (token === null) return;
      const found = await ctx.signIn.resolve(token);
      if (found)
        request.viewer = { ...found, token, ...(await currentWorkspace(ctx, request, reply, found.account.id, token)) };
      else clearSessionCookie(request, reply);
    });
    if (ctx.web.rateLimit) await installWebRateLimit(web, ctx.web.rateLimit);

    web.addHook('preValidation', async (request, reply) => {
      const access = request.routeOptions.config.access ?? 'account';
      if (access !== 'public' && !request.viewer) {
        const next = SAFE_METHODS.has(request.method) ? request.url : (request.headers.referer ?? '/dashboard');
        const path = safePath(next);
        return seeOther(reply, `/login?next=${encodeURIComponent(path)}`);
      }
      if (access === 'admin' && !request.viewer?.account.isAdmin)
        return sendErrorPage(request, reply, 'notFound', secret);
      const url = request.routeOptions.url;
      const rule = url === undefined ? null : webRuleOf(request.method, url, access);
      if (request.viewer && rule !== null && refuseByPolicy(request, reply, rule, secret)) return reply;
      if (SAFE_METHODS.has(request.method)) return;
      if (isCrossSite(request)) return sendErrorPage(request, reply, 'forbidden', secret);
      const csrf = request.routeOptions.config.csrf;
      if (csrf === 'origin' || (csrf === 'multipart' && isMultipart(request))) return;
      return checkToken(request, reply);
    });
    installTwoFactorGate(web, ctx);

    web.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (error instanceof NotFoundError || (error.validation && error.validationContext === 'params'))
        return sendErrorPage(request, reply, 'notFound', secret);
      if (error instanceof ForbiddenError)
        return sendErrorPage(request, reply, 'forbidden', secret, { body: error.missing });
      if (error instanceof GoneError) return sendErrorPage(request, reply, 'gone', secret);
      if (error instanceof UnavailableError)
        return sendErrorPage(request, reply, error.dependency === QR_RENDERER ? 'busy' : 'unavailable', secret);
      if (error instanceof TooManyAttemptsError)
        return sendErrorPage(request, reply, 'tooMany', secret, { retryAfterSeconds: error.retryAfterSeconds });
      // The schema refused the query or the form of a route that does not show its fields again
      // (a list's page number, a form's field sent as a list): 422, each field named.
      if (error.validation)
        return sendErrorPage(request, reply, 'invalid', secret, { fields: fieldErrorsOf(error.validation) });
      // A form's ValidationError is its route's to show beside the fields; one that gets here is a bug.
      const status = error instanceof ValidationError ? 500 : (error.statusCode ?? 500);
      if (status >= 500) {
        request.log.error({ err: error }, 'web page failed');
        return sendErrorPage(request, reply, 'server', secret);
      }
      // Bodies too large, of a type no form sends, or unreadable: said as such, not as a CSRF refusal.
      return sendErrorPage(request, reply, status === 404 ? 'notFound' : 'badRequest', secret, { status });
    });

    homePage(domainRoot)(web, ctx);
    for (const register of WEB_FEATURES) register(web, ctx);
  });
}

/** Each web route as it is registered: kept out of the OpenAPI document, and listed with the policy rule that decides it. */
function listPolicedRoutes(app: FastifyInstance, web: FastifyInstance): void {
  // Pages are not the API: none of them belongs in the OpenAPI document.
  web.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
    const access = route.config?.access ?? 'account';
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const rule = webRuleOf(method, route.url, access);
      // A form of a signed-in person that nothing names could write past the policy: no start.
      if (rule === null && method !== 'GET') throw new Error(`no policy action for web route ${method} ${route.url}`);
      app.webPolicedRoutes.push({ method, url: route.url, rule: rule ?? 'none' });
    }
  });
}

/** The path part of a URL or referer on this site (the referer is absolute). */
function safePath(value: string): string {
  try {
    const url = new URL(value, 'http://x');
    return url.pathname + url.search;
  } catch {
    return '/dashboard';
  }
}
