import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createServer, type ServerOptions } from 'node:http';
import cors from '@fastify/cors';
import { trustFunction, type TrustProxy } from '../shared/request/client-address.ts';
import { fastRedirect, fastRedirectOnNodeHttp, type FastVisit } from './redirect/fast-redirect.ts';
import { installBodyParsers } from './body-parsers.ts';
import { markMalformed, refuseMalformed } from './malformed-request.ts';
import { answerClientErrors, hasBody, lingerAfterEarlyAnswers } from './lingering-close.ts';
import { answerFrameworkError, errorEnvelope, installErrorHandler } from '../shared/errors/error-handler.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import { LINK_LIMITS } from '../../core/links/link-input.ts';
import { normalizeBody, normalizeQuery } from '../shared/input/normalize-input.ts';
import { strictValidatorFactory } from '../shared/input/strict-input.ts';
import { sharedSerializerFactory } from './shared-serializers.ts';
import { sharedValidatorFactory } from './shared-validators.ts';
import { identifyApiKey, requireApiKey } from './auth.ts';
import { enforcePolicy, type PolicedRoute } from './route-actions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route and its policy action (docs/adr/0064). */
    policedRoutes: PolicedRoute[];
    /** The first path segments of the app's own routes, lower case: the visit path leaves them to Fastify. */
    appSegments: ReadonlySet<string>;
  }
}
import { installRateLimit } from './rate-limit.ts';
import type { RateLimitSettings } from '../shared/request/rate-limit-settings.ts';
import { installOpenApi, serveOpenApiDocument } from './openapi.ts';
import { apiRoutes } from './routes.ts';
import { noticeDisabledWebhooks } from './webhook-notice.ts';
import { accountHandlers } from './handlers/account.ts';
import type { ApiContext } from './handlers/context.ts';
import { registerRedirectRoutes } from './redirect/routes.ts';
import { registerConversionPixel } from './conversion-pixel.ts';
import { redirectHandlers } from './redirect/handlers.ts';
import type { RedirectContext } from './redirect/visit-context.ts';
import { sendPage } from './redirect/respond.ts';
import { createNonce } from '../web/pages/csp.ts';
import { renderNotFound } from '../web/pages/not-found.ts';
import { registerWebApp } from '../web/app/plugin.ts';
import type { WebContext } from '../web/app/web-context.ts';
import type { MetricsText } from '../metrics/metrics-registry.ts';
import type { RedirectMeter } from '../metrics/redirect-meter.ts';
import type { RequestCounts } from '../metrics/request-counts.ts';
import { echoRequestIds, requestIdOf } from './request-id.ts';
import { RequestLog } from './request-log.ts';
import { countRequests } from './request-metrics.ts';
import { serveMetrics } from './metrics-route.ts';
import { registerImportRoute } from './import-route.ts';
import { registerQrLogoRoutes } from './qr-logo-routes.ts';
import { uploadWindowMs } from './upload-window.ts';

export interface HttpOptions {
  logger: FastifyServerOptions['logger'];
  bodyLimit: number;
  /** The largest body of a bulk create (a thousand links); bodyLimit when absent. */
  bulkBodyLimit?: number;
  /** The largest file POST /api/v1/links/import takes (IMPORT_MAX_BYTES). */
  importMaxBytes: number;
  trustProxy: TrustProxy;
  rateLimit: RateLimitSettings;
  /** How long a request's head and body may take to arrive (its head: this or 60 s, if less); 0: no limit. */
  requestTimeoutMs: number;
  /** Requests counted and redirects timed for GET /metrics (docs/adr/0030); absent: metrics are off. */
  metrics?: HttpMetrics | undefined;
}

export interface HttpMetrics {
  redirect: RedirectMeter;
  requests: RequestCounts;
  /** GET /metrics on this app, behind a bearer token; null: on a port of its own (METRICS_PORT) instead. */
  endpoint: { metrics: MetricsText; token: string } | null;
}

const isApiPath = (url: string) =>
  url.startsWith('/api/') || /^\/(links|pixels|spaces|domains)\/[^/]+\/destroy/.test(url);

/** Builds the whole HTTP application without listening, so tests can drive it in-process. */
export async function createHttpApp(
  ctx: ApiContext,
  options: HttpOptions,
  redirect?: RedirectContext,
  web?: WebContext,
): Promise<FastifyInstance> {
  const trust = trustFunction(options.trustProxy);
  // Filled in once the app exists: the server is created before the routes are.
  let fast: FastVisit | null = null;
  // A dependency that is away (UnavailableError) is told once by its adapter, not per visit.
  const onError = (err: unknown) => {
    if (!(err instanceof UnavailableError)) app.log.error({ err }, 'redirect failed');
  };
  const fastOnNodeHttp = fastRedirectOnNodeHttp((req) => (fast === null ? null : fast(req)), onError);
  const app = Fastify({
    logger: options.logger,
    bodyLimit: options.bodyLimit,
    trustProxy: trust ?? false,
    requestTimeout: options.requestTimeoutMs,
    clientErrorHandler: answerClientErrors(),
    // On close, idle keep-alive connections are closed at once (node:http's closeIdleConnections):
    // a proxy then retries the next request elsewhere instead of passing a 503 on.
    forceCloseConnections: 'idle',
    // node:http with the redirect's fast path in front of Fastify's own handler, set up as
    // Fastify sets up a server of its own (its timeouts, defaults filled in). node:http parses
    // every request (docs/design/visit.md).
    serverFactory: (handler, fastifyOptions) => {
      // Fastify hands its own options in; their declared type is too loose to read numbers from.
      const opts = fastifyOptions as {
        http?: ServerOptions | null;
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
      };
      const timeout = opts.requestTimeout ?? 0;
      const server = createServer(
        {
          ...opts.http,
          requestTimeout: timeout,
          headersTimeout: Math.min(60_000, timeout),
          // node:http looks for requests past their time this often: a fraction of the timeout, so
          // that a slow request is cut off near its time rather than up to 30 s (Node's default) later.
          connectionsCheckingInterval: timeout > 0 ? Math.min(1000, Math.ceil(timeout / 4)) : 30_000,
        },
        (req, res) => {
          // Requests with a body (lingering-close.ts) and refused ones (malformed-request.ts) are Fastify's.
          if (hasBody(req) || markMalformed(req) || !fastOnNodeHttp(req, res)) handler(req, res);
        },
      );
      server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
      // Idle connections close after keepAliveTimeout and slow requests after requestTimeout:
      // no timeout of the socket's own beyond those.
      server.setTimeout(opts.connectionTimeout ?? 0);
      return server;
    },
    // Requests that arrive while the server closes get a 503 from the hook below, in the
    // contract's envelope: Fastify's own carries its body.
    return503OnClosing: false,
    // Every visitor route takes an alias as long as the contract allows (phpShort's limit);
    // Fastify's default of 100 answered longer ones with a 414 before any route.
    routerOptions: { maxParamLength: LINK_LIMITS.aliasMax },
    frameworkErrors: answerFrameworkError,
    // A line per request of the API and the web app; none per visit (request-log.ts).
    logController: new RequestLog(),
    genReqId: requestIdOf(trust),
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: true, useDefaults: true } },
    // Every route's params, query and body pass one strict reading of numbers and types before
    // Ajv's coercion (strict-input.ts): the API's and the web app's alike.
    schemaController: {
      compilersFactory: {
        buildValidator: strictValidatorFactory(sharedValidatorFactory),
        buildSerializer: sharedSerializerFactory,
      },
    },
  });
  const appSegments = new Set<string>();
  app.decorate('appSegments', appSegments);
  app.addHook('onRoute', (route) => {
    const first = route.url.split('/')[1] ?? '';
    if (first !== '' && !first.startsWith(':') && !first.startsWith('*')) appSegments.add(first.toLowerCase());
  });
  installErrorHandler(app);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    void reply.code(503).header('connection', 'close').send(errorEnvelope(503));
  });
  lingerAfterEarlyAnswers(app);
  echoRequestIds(app);
  const { metrics } = options;
  if (metrics) countRequests(app, metrics);
  refuseMalformed(app);
  app.decorate('policedRoutes', [] as PolicedRoute[]);
  await installBodyParsers(app);
  await installOpenApi(app, ctx.urls.appUrl);
  app.get('/health', { schema: { hide: true } }, accountHandlers(ctx).health);
  if (metrics?.endpoint) serveMetrics(app, metrics.endpoint.metrics, metrics.endpoint.token);

  // CORS lives in a scope of its own, holding the API and its preflight route: at the root its
  // hook would run on every redirect, for nothing (the redirect is not open to other origins).
  await app.register(async (open) => {
    await open.register(cors, {
      // Open for the API only; no cookies are involved there, so "*" is safe. The plugin's default
      // methods (GET, HEAD, POST) would fail a browser's preflight of PUT, PATCH and DELETE.
      // The preflight route answers OPTIONS on every path: elsewhere it stays a 404.
      delegator: (req, cb) =>
        cb(null, {
          origin: isApiPath(req.url ?? '') ? '*' : false,
          methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        }),
    });
    serveOpenApiDocument(open);
    await open.register(async (api) => {
      identifyApiKey(api, ctx.accounts, ctx.workspaces);
      await installRateLimit(api, options.rateLimit);
      requireApiKey(api);
      enforcePolicy(api, app.policedRoutes);
      noticeDisabledWebhooks(api, ctx.webhooks);
      api.addHook('preValidation', async (request) => {
        request.query = normalizeQuery(request.query);
        if (request.method !== 'GET' && request.method !== 'DELETE') request.body = normalizeBody(request.body);
      });
      for (const route of apiRoutes(ctx, options.bulkBodyLimit ?? options.bodyLimit)) api.route(route);
      await registerImportRoute(api, ctx, {
        maxBytes: options.importMaxBytes,
        spoolMs: uploadWindowMs(options.requestTimeoutMs),
      });
      await registerQrLogoRoutes(api, ctx);
    });
  });

  // Before the redirect: its /:alias must not take the app's first path segments (onRoute above).
  if (web) await registerWebApp(app, web, redirect ? redirectHandlers(redirect).domainRoot : undefined);

  if (redirect) {
    registerConversionPixel(app, ctx);
    registerRedirectRoutes(app, redirect, { root: !web });
    if (redirect.cached) {
      let open = true;
      app.addHook('preClose', (done) => {
        open = false;
        done();
      });
      fast = fastRedirect(redirect, {
        links: redirect.cached,
        trust,
        appSegments,
        open: () => open,
        meter: metrics?.redirect ?? null,
      });
    }
  }

  app.setNotFoundHandler((request, reply) => {
    // Outside the CORS scope: an unknown API path still tells a browser client why.
    if (isApiPath(request.url))
      return reply.code(404).header('access-control-allow-origin', '*').send(errorEnvelope(404));
    return sendPage(reply, 404, renderNotFound({ nonce: createNonce() }));
  });
  return app;
}
