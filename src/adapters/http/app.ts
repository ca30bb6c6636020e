import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import { installBodyParsers } from './body-parsers.ts';
import { errorEnvelope, installErrorHandler } from './error-handler.ts';
import { normalizeBody, normalizeQuery } from './normalize-input.ts';
import { requireApiKey } from './auth.ts';
import { installRateLimit, type ApiRateLimit } from './rate-limit.ts';
import { installOpenApi, serveOpenApiDocument } from './openapi.ts';
import { apiRoutes } from './routes.ts';
import { accountHandlers } from './handlers/account.ts';
import type { ApiContext } from './handlers/context.ts';
import { registerRedirectRoutes } from './redirect/routes.ts';
import type { RedirectContext } from './redirect/visit-context.ts';
import { sendPage } from './redirect/respond.ts';
import { createNonce } from '../web/pages/csp.ts';
import { renderNotFound } from '../web/pages/not-found.ts';

export interface HttpOptions {
  logger: FastifyServerOptions['logger'];
  bodyLimit: number;
  trustProxy: boolean | number | string;
  rateLimit: ApiRateLimit;
}

const isApiPath = (url: string) => url.startsWith('/api/') || /^\/(links|pixels|spaces|domains)\/[^/]+\/destroy/.test(url);

/** Builds the whole HTTP application without listening, so tests can drive it in-process. */
export async function createHttpApp(ctx: ApiContext, options: HttpOptions, redirect?: RedirectContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger,
    bodyLimit: options.bodyLimit,
    // A hop count becomes Fastify's function form; the rest it takes as is.
    trustProxy: typeof options.trustProxy === 'number'
      ? ((hops: number) => (_addr: string, i: number) => i < hops)(options.trustProxy)
      : options.trustProxy,
    return503OnClosing: true,
    // Per-request log lines would cost the redirect a third of its speed; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: true, useDefaults: true } },
  });
  installErrorHandler(app);
  await installBodyParsers(app);
  await installOpenApi(app, ctx.urls.appUrl);
  app.get('/health', { schema: { hide: true } }, accountHandlers(ctx).health);

  // CORS lives in a scope of its own, holding the API and its preflight route: at the root its
  // hook would run on every redirect, for nothing (the redirect is not open to other origins).
  await app.register(async (open) => {
    await open.register(cors, {
      // Open for the API only; no cookies are involved there, so "*" is safe. The plugin's default
      // methods (GET, HEAD, POST) would fail a browser's preflight of PUT, PATCH and DELETE.
      // The preflight route answers OPTIONS on every path: elsewhere it stays a 404.
      delegator: (req, cb) => cb(null, {
        origin: isApiPath(req.url ?? '') ? '*' : false, methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      }),
    });
    serveOpenApiDocument(open);
    await open.register(async (api) => {
      await installRateLimit(api, options.rateLimit);
      requireApiKey(api, ctx.accounts);
      api.addHook('preValidation', async (request) => {
        request.query = normalizeQuery(request.query);
        if (request.method !== 'GET' && request.method !== 'DELETE') request.body = normalizeBody(request.body);
      });
      for (const route of apiRoutes(ctx)) api.route(route);
    });
  });

  if (redirect) registerRedirectRoutes(app, redirect);

  app.setNotFoundHandler((request, reply) => {
    // Outside the CORS scope: an unknown API path still tells a browser client why.
    if (isApiPath(request.url)) return reply.code(404).header('access-control-allow-origin', '*').send(errorEnvelope(404));
    return sendPage(reply, 404, renderNotFound({ nonce: createNonce() }));
  });
  return app;
}
