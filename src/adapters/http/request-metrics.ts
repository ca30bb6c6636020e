import type { FastifyInstance } from 'fastify';
import type { RedirectMeter } from '../metrics/redirect-meter.ts';
import type { RequestCounts } from '../metrics/request-counts.ts';
import { ALIAS_ROUTE } from '../metrics/metrics-registry.ts';

/** What an unmatched request is counted as: its raw path would make a label of every scanner's guess. */
const UNMATCHED = 'unmatched';

/**
 * Counts every request Fastify answers by route pattern and status, and times the visits its
 * redirect route answers (the fast path times its own, redirect/door.ts). Installed only while
 * metrics are on.
 */
export function countRequests(
  app: FastifyInstance,
  meters: { redirect: RedirectMeter; requests: RequestCounts },
): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    meters.requests.add(route, reply.statusCode);
    if (route === ALIAS_ROUTE && (request.method === 'GET' || request.method === 'HEAD')) {
      meters.redirect.route.observe(reply.elapsedTime);
    }
    done();
  });
}
