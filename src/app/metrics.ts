import type { HttpMetrics } from './http-app.ts';
import { createMetricsRegistry, type DependencyHealth } from '../adapters/metrics/metrics-registry.ts';
import { startMetricsServer, type MetricsServer } from '../adapters/metrics/metrics-server.ts';
import { RedirectMeter } from '../adapters/metrics/redirect-meter.ts';
import { RequestCounts } from '../adapters/metrics/request-counts.ts';
import type { Config } from './config.ts';
import type { Container } from './container.ts';

export interface Metrics {
  /** What the HTTP app counts, and whether it serves GET /metrics itself. */
  http: HttpMetrics;
  /** Listens on METRICS_PORT, when set. */
  listen(onError: (error: unknown) => void): Promise<MetricsServer | null>;
}

/**
 * GET /metrics (docs/design/observability.md): on the app's port behind METRICS_TOKEN, or on METRICS_PORT;
 * null when neither is set, and then nothing is counted on a request either.
 */
export function metricsOf(config: Config, container: Container): Metrics | null {
  const token = config.METRICS_TOKEN;
  const address = config.METRICS_PORT;
  if (token === null && address === null) return null;
  const dependencies = new Map<string, DependencyHealth>();
  if (container.storage.outage) dependencies.set('postgresql', container.storage.outage);
  if (container.visits.redisOutage) dependencies.set('redis', container.visits.redisOutage);
  const redirect = new RedirectMeter();
  const requests = new RequestCounts();
  const metrics = createMetricsRegistry({
    redirect,
    requests,
    cache: container.visits.source.counts,
    clicks: container.visits.clickMeter,
    dependencies,
  });
  return {
    http: { redirect, requests, endpoint: address === null ? { metrics, token: token! } : null },
    listen: async (onError) => (address === null ? null : startMetricsServer({ ...address, token, metrics, onError })),
  };
}
