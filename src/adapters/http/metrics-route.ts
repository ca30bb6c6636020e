import type { FastifyInstance } from 'fastify';
import { bearerTokenCheck } from '../metrics/bearer-token.ts';
import type { MetricsText } from '../metrics/metrics-registry.ts';
import { errorEnvelope } from '../shared/errors/error-handler.ts';

/** GET /metrics on the app's own port, for a scraper that presents METRICS_TOKEN as a bearer token. */
export function serveMetrics(app: FastifyInstance, metrics: MetricsText, token: string): void {
  const allowed = bearerTokenCheck(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!allowed(request.headers.authorization)) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send(errorEnvelope(401));
    }
    return reply
      .header('content-type', metrics.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.text());
  });
}
