import type { FastifyInstance, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import type { RateLimitSettings } from '../shared/request/rate-limit-settings.ts';
import { normalizeBody, normalizeQuery } from '../shared/input/normalize-input.ts';
import type { MetricsText } from '../metrics/metrics-registry.ts';
import { identifyApiKey, requireApiKey } from './auth.ts';
import { enforcePolicy, type PolicedRoute } from './route-actions.ts';
import { installRateLimit } from './rate-limit.ts';
import { installOpenApi, serveOpenApiDocument } from './openapi.ts';
import { apiRoutes } from './routes.ts';
import { noticeDisabledWebhooks } from './webhook-notice.ts';
import { accountHandlers } from './handlers/account.ts';
import type { ApiContext } from './handlers/context.ts';
import { serveMetrics } from './metrics-route.ts';
import { registerImportRoute } from './import-route.ts';
import { registerQrLogoRoutes } from './qr-logo-routes.ts';
import { registerCardImageRoutes } from './card-image-routes.ts';
import { uploadWindowMs } from './upload-window.ts';
import { registerIntegrationReceiver } from './integration-receiver.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route and its policy action (docs/design/teams.md). */
    policedRoutes: PolicedRoute[];
  }
}

export interface ApiOptions {
  /** The largest body of a bulk create (a thousand links). */
  bulkBodyLimit: number;
  /** The largest file POST /api/v1/links/import takes (IMPORT_MAX_BYTES). */
  importMaxBytes: number;
  /** How long a request's head and body may take to arrive: an import's upload is given its own window from it. */
  requestTimeoutMs: number;
  rateLimit: RateLimitSettings;
  /** GET /metrics on this app, behind a bearer token; null: not here (metrics off, or on METRICS_PORT). */
  metrics: { metrics: MetricsText; token: string } | null;
  /**
   * Routes of another adapter behind the same key, rate limit and policy (the MCP endpoint, whose
   * tools call these routes): src/app passes them in, so that this adapter imports none of them.
   */
  moreKeyedRoutes?: ((api: FastifyInstance) => void) | undefined;
}

/** The API's paths, open to other origins (CORS); an unknown one answers the API's 404. */
export const isApiPath = (url: string) =>
  url.startsWith('/api/') || /^\/(links|pixels|spaces|domains)\/[^/]+\/destroy/.test(url);

/**
 * The API on the app: its OpenAPI document and /docs, /health, /metrics when it is served here,
 * and the routes behind an API key. CORS lives in a scope of its own holding the API and its
 * preflight route: at the root its hook would run on every redirect, for nothing (the redirect
 * is not open to other origins).
 */
export async function registerApi(app: FastifyInstance, ctx: ApiContext, options: ApiOptions): Promise<void> {
  app.decorate('policedRoutes', [] as PolicedRoute[]);
  await installOpenApi(app, ctx.urls.appUrl);
  app.get('/health', { schema: { hide: true } }, accountHandlers(ctx).health);
  if (options.metrics) serveMetrics(app, options.metrics.metrics, options.metrics.token);
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
    // Beside the keyed routes: a sender's signature opens it, not a key.
    await registerIntegrationReceiver(open, ctx, options.rateLimit);
    await open.register((api) => registerKeyedRoutes(api, app.policedRoutes, ctx, options));
  });
}

/** The routes an API key opens: the key read, counted against the limit, required, its role and scopes checked. */
async function registerKeyedRoutes(
  api: FastifyInstance,
  policed: PolicedRoute[],
  ctx: ApiContext,
  options: ApiOptions,
): Promise<void> {
  identifyApiKey(api, ctx.accounts, ctx.workspaces);
  await installRateLimit(api, options.rateLimit);
  requireApiKey(api);
  enforcePolicy(api, policed);
  noticeDisabledWebhooks(api, ctx.webhooks);
  api.addHook('preValidation', normalizeInput);
  for (const route of apiRoutes(ctx, options.bulkBodyLimit)) api.route(route);
  await registerImportRoute(api, ctx, {
    maxBytes: options.importMaxBytes,
    spoolMs: uploadWindowMs(options.requestTimeoutMs),
  });
  await registerQrLogoRoutes(api, ctx);
  await registerCardImageRoutes(api, ctx);
  options.moreKeyedRoutes?.(api);
}

/** phpShort's other names and blank fields folded into one shape before validation (normalize-input.ts); a body only on writes. */
async function normalizeInput(request: FastifyRequest): Promise<void> {
  request.query = normalizeQuery(request.query);
  if (request.method !== 'GET' && request.method !== 'DELETE') request.body = normalizeBody(request.body);
}
