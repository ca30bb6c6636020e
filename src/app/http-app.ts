import type { FastifyInstance } from 'fastify';
import { UnavailableError } from '../core/shared/errors.ts';
import { trustFunction, type TrustFunction, type TrustProxy } from '../adapters/shared/request/client-address.ts';
import type { RateLimitSettings } from '../adapters/shared/request/rate-limit-settings.ts';
import { errorEnvelope, installErrorHandler } from '../adapters/shared/errors/error-handler.ts';
import { registerApi, isApiPath } from '../adapters/http/api.ts';
import type { ApiContext } from '../adapters/http/handlers/context.ts';
import { installBodyParsers } from '../adapters/http/body-parsers.ts';
import { lingerAfterEarlyAnswers } from '../adapters/shared/request/lingering-close.ts';
import { refuseMalformed } from '../adapters/redirect/malformed-request.ts';
import { echoRequestIds } from '../adapters/http/request-id.ts';
import { countRequests } from '../adapters/http/request-metrics.ts';
import { registerConversionPixel } from '../adapters/redirect/conversion-pixel.ts';
import { registerCardImageRoute } from '../adapters/images/card-image-route.ts';
import { fastVisit, visitDoor, type FastVisit } from '../adapters/redirect/door.ts';
import { registerRedirectRoutes } from '../adapters/redirect/routes.ts';
import { registerTlsAllowed } from '../adapters/redirect/tls-allowed.ts';
import { redirectHandlers } from '../adapters/redirect/handlers.ts';
import type { RedirectContext } from '../adapters/redirect/visit-context.ts';
import { sendPage } from '../adapters/redirect/answer.ts';
import { createNonce } from '../adapters/redirect/pages/csp.ts';
import { renderNotFound } from '../adapters/redirect/pages/not-found.ts';
import { registerMcpRoute } from '../adapters/mcp/route.ts';
import { registerWebApp } from '../adapters/web/app/plugin.ts';
import type { WebContext } from '../adapters/web/app/web-context.ts';
import type { MetricsText } from '../adapters/metrics/metrics-registry.ts';
import type { RedirectMeter } from '../adapters/metrics/redirect-meter.ts';
import type { RequestCounts } from '../adapters/metrics/request-counts.ts';
import { createFastify, type BeforeFastify, type ServerSettings } from './http-server.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The first path segments of the app's own routes, lower case: the visit path leaves them to Fastify. */
    appSegments: ReadonlySet<string>;
  }
}

export interface HttpOptions extends ServerSettings {
  /** The largest body of a bulk create (a thousand links); bodyLimit when absent. */
  bulkBodyLimit?: number;
  /** The largest file POST /api/v1/links/import takes (IMPORT_MAX_BYTES). */
  importMaxBytes: number;
  trustProxy: TrustProxy;
  rateLimit: RateLimitSettings;
  /** Requests counted and redirects timed for GET /metrics (docs/design/observability.md); absent: metrics are off. */
  metrics?: HttpMetrics | undefined;
}

export interface HttpMetrics {
  redirect: RedirectMeter;
  requests: RequestCounts;
  /** GET /metrics on this app, behind a bearer token; null: on a port of its own (METRICS_PORT) instead. */
  endpoint: { metrics: MetricsText; token: string } | null;
}

/**
 * Builds the whole HTTP application without listening, so tests can drive it in-process: the
 * API (adapters/http), the web app (adapters/web) and the redirect, siblings that never import
 * each other, on one Fastify over node:http. The app-wide hooks come first, in this order; then
 * the API, the web app before the redirect (its /:alias must not take the app's first path
 * segments), and the 404s.
 */
export async function createHttpApp(
  ctx: ApiContext,
  options: HttpOptions,
  redirect?: RedirectContext,
  web?: WebContext,
): Promise<FastifyInstance> {
  const trust = trustFunction(options.trustProxy);
  // A dependency that is away (UnavailableError) is told once by its adapter, not per visit.
  const fastPath = fastPathSlot((err) => {
    if (!(err instanceof UnavailableError)) app.log.error({ err }, 'redirect failed');
  });
  const app = createFastify(options, trust, fastPath.beforeFastify);
  const appSegments = collectAppSegments(app);
  installErrorHandler(app);
  refuseWhileClosing(app);
  lingerAfterEarlyAnswers(app);
  echoRequestIds(app);
  const { metrics } = options;
  if (metrics) countRequests(app, metrics);
  refuseMalformed(app);
  await installBodyParsers(app);
  await registerApi(app, ctx, {
    bulkBodyLimit: options.bulkBodyLimit ?? options.bodyLimit,
    importMaxBytes: options.importMaxBytes,
    requestTimeoutMs: options.requestTimeoutMs,
    rateLimit: options.rateLimit,
    metrics: metrics?.endpoint ?? null,
    moreKeyedRoutes: registerMcpRoute,
  });
  if (web) await registerWebApp(app, web, redirect ? redirectHandlers(redirect).domainRoot : undefined);
  if (redirect) {
    registerRedirect(app, ctx, redirect, {
      root: !web,
      fastPath: { trust, appSegments, meter: metrics?.redirect ?? null, fill: fastPath.fill },
    });
  }
  answerNotFound(app);
  return app;
}

/** The first segment of every route registered after it (the visit path declines them: docs/design/visit.md). */
function collectAppSegments(app: FastifyInstance): ReadonlySet<string> {
  const appSegments = new Set<string>();
  app.decorate('appSegments', appSegments);
  app.addHook('onRoute', (route) => {
    const first = route.url.split('/')[1] ?? '';
    if (first !== '' && !first.startsWith(':') && !first.startsWith('*')) appSegments.add(first.toLowerCase());
  });
  return appSegments;
}

/** Requests that arrive while the server closes: a 503 in the contract's envelope, and the connection closed. */
function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    void reply.code(503).header('connection', 'close').send(errorEnvelope(503));
  });
}

/**
 * The visit's fast path on node:http, in front of Fastify. The server is created before the
 * routes are, so the path is filled in once the redirect's exist; until then (and without a
 * link cache) every request is Fastify's.
 */
function fastPathSlot(onError: (error: unknown) => void): {
  beforeFastify: BeforeFastify;
  fill: (visit: FastVisit) => void;
} {
  let fast: FastVisit | null = null;
  return {
    beforeFastify: visitDoor((req) => (fast === null ? null : fast(req)), onError),
    fill: (visit) => {
      fast = visit;
    },
  };
}

interface FastPathSettings {
  trust: TrustFunction | null;
  appSegments: ReadonlySet<string>;
  meter: RedirectMeter | null;
  fill: (visit: FastVisit) => void;
}

/** The visitor routes, the conversion pixel, social cards' uploaded images, and the fast path over the link cache when there is one. */
function registerRedirect(
  app: FastifyInstance,
  ctx: ApiContext,
  redirect: RedirectContext,
  options: { root: boolean; fastPath: FastPathSettings },
): void {
  registerConversionPixel(app, ctx);
  registerCardImageRoute(app, ctx);
  registerTlsAllowed(app, { appHosts: redirect.options.appHosts, names: redirect.certifiable ?? null });
  registerRedirectRoutes(app, redirect, { root: options.root });
  if (!redirect.cached) return;
  let open = true;
  app.addHook('preClose', (done) => {
    open = false;
    done();
  });
  const { trust, appSegments, meter, fill } = options.fastPath;
  fill(fastVisit(redirect, { links: redirect.cached, trust, appSegments, open: () => open, meter }));
}

function answerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    // Outside the CORS scope: an unknown API path still tells a browser client why.
    if (isApiPath(request.url))
      return reply.code(404).header('access-control-allow-origin', '*').send(errorEnvelope(404));
    return sendPage(reply, 404, renderNotFound({ nonce: createNonce() }));
  });
}
