import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { ClickMeter } from './click-meter.ts';
import { registerHistogram } from './prom-histogram.ts';
import type { RedirectMeter } from './redirect-meter.ts';
import type { RequestCounts } from './request-counts.ts';

/** The link cache's own counts (CachedRedirectSource.counts). */
export interface CacheCounts {
  /** Look-ups through the route answered from memory. */
  readonly hits: number;
  /** Look-ups that read the database, or waited for a read of the same link on its way. */
  readonly misses: number;
  /** Entries past their time read again in the background while still served. */
  readonly refreshes: number;
  /** Visits answered from a link's last known state while the database could not be read. */
  readonly stale: number;
}

/** A dependency's outages as its OutageReporter counts them. */
export interface DependencyHealth {
  readonly errors: number;
  readonly down: boolean;
}

export interface MetricsSources {
  redirect: RedirectMeter;
  requests: RequestCounts;
  cache: CacheCounts;
  clicks: ClickMeter;
  /** By name (postgresql, redis): the ones this instance uses. */
  dependencies: ReadonlyMap<string, DependencyHealth>;
}

/** The route the fast path's answers are counted under: the one Fastify would have served them by. */
export const ALIAS_ROUTE = '/:alias';

/** What GET /metrics answers: Prometheus's text format. */
export interface MetricsText {
  contentType: string;
  text(): Promise<string>;
}

/**
 * A prom-client registry whose linkpix metrics are read from plain counters at scrape time
 * (collect()), so that nothing on a request calls prom-client; plus prom-client's default
 * process metrics, the event loop's lag among them. One registry per server: tests run several.
 */
export function createMetricsRegistry(sources: MetricsSources): MetricsText {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // In this order on the page: requests, the redirect, the link cache, clicks, dependencies.
  requestMetrics(registry, sources.requests, sources.redirect);
  cacheMetrics(registry, sources.cache, sources.redirect);
  clickMetrics(registry, sources.clicks);
  if (sources.dependencies.size > 0) dependencyMetrics(sources.dependencies, [registry]);
  return { contentType: registry.contentType, text: () => registry.metrics() };
}

/** A counter read from a plain count at scrape time. */
function counter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function requestMetrics(registry: Registry, requests: RequestCounts, redirect: RedirectMeter): void {
  new Counter({
    name: 'linkpix_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status (the fast path under /:alias).',
    labelNames: ['route', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { route, status, n } of requests.entries()) this.inc({ route, status }, n);
      redirect.fastStatuses.forEach((n, status) => {
        if (n > 0) this.inc({ route: ALIAS_ROUTE, status }, n);
      });
    },
  });
  registerHistogram(
    registry,
    'linkpix_redirect_duration_seconds',
    'Time from a visit read to its answer ready, by door: fast (the cached fast path) or route (through Fastify).',
    () => [
      { labels: { door: 'fast' }, histogram: redirect.fast },
      { labels: { door: 'route' }, histogram: redirect.route },
    ],
  );
}

function cacheMetrics(registry: Registry, cache: CacheCounts, redirect: RedirectMeter): void {
  new Counter({
    name: 'linkpix_link_cache_lookups_total',
    help: 'Link look-ups of the redirect by result: hit (answered from memory, every fast-path visit) or miss (read from the database, or waiting for that read).',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: 'hit' }, cache.hits + redirect.fastAnswers);
      this.inc({ result: 'miss' }, cache.misses);
    },
  });
  counter(
    registry,
    'linkpix_link_cache_refreshes_total',
    'Cached links past their time read again in the background while still served.',
    () => cache.refreshes,
  );
  counter(
    registry,
    'linkpix_link_cache_stale_total',
    "Visits answered from a cached link's last known state (expired, or doubted after a Redis gap) because the database could not be read.",
    () => cache.stale,
  );
}

function clickMetrics(registry: Registry, clicks: ClickMeter): void {
  counter(
    registry,
    'linkpix_clicks_recorded_total',
    'Clicks handed to the click sink by visits.',
    () => clicks.recorded,
  );
  counter(registry, 'linkpix_clicks_written_total', 'Clicks written to the database.', () => clicks.written);
  counter(
    registry,
    'linkpix_clicks_dropped_total',
    'Clicks dropped because the buffer was full while the database was away (CLICK_BUFFER_MAX).',
    () => clicks.dropped,
  );
  counter(
    registry,
    'linkpix_clicks_spooled_total',
    'Clicks kept in the spool on disk because the buffer was full while the database was away (written when it is back).',
    () => clicks.spooled,
  );
  new Gauge({
    name: 'linkpix_clicks_pending',
    help: 'Clicks recorded and not yet written or dropped.',
    registers: [registry],
    collect() {
      this.set(clicks.pending);
    },
  });
  registerHistogram(registry, 'linkpix_click_flush_duration_seconds', 'Time to write one batch of clicks.', () => [
    { labels: {}, histogram: clicks.flushes },
  ]);
}

function dependencyMetrics(dependencies: ReadonlyMap<string, DependencyHealth>, registers: Registry[]): void {
  new Counter({
    name: 'linkpix_dependency_errors_total',
    help: 'Connection errors of a dependency (postgresql, redis), each retry of an outage included.',
    labelNames: ['dependency'],
    registers,
    collect() {
      this.reset();
      for (const [dependency, health] of dependencies) this.inc({ dependency }, health.errors);
    },
  });
  new Gauge({
    name: 'linkpix_dependency_up',
    help: 'Whether a dependency (postgresql, redis) is reachable as far as this instance knows: 1 or 0.',
    labelNames: ['dependency'],
    registers,
    collect() {
      for (const [dependency, health] of dependencies) this.set({ dependency }, health.down ? 0 : 1);
    },
  });
}
