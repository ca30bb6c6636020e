// GET /metrics (docs/design/observability.md) on a real server, behind METRICS_TOKEN on the app's
// port: refused without the token, Prometheus's text format with it, and its counters moving
// with what the server does — a redirect through the route then the fast path, an API call,
// a cache miss then hits, clicks written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { hasMetric, metricValue, parseMetrics, type Sample } from '../../support/metrics-text.ts';
import { makeLink, visit } from '../redirect/redirect-support.ts';

const TOKEN = 'scrape-token-0123456789';

async function scrape(h: Harness): Promise<Sample[]> {
  const res = await h.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return parseMetrics(res.text);
}

onEachEngine(
  'metrics: GET /metrics behind METRICS_TOKEN',
  (h) => {
    test('without the token, or with another, /metrics answers 401 and tells nothing', async () => {
      const attempts: Array<Record<string, string>> = [
        {},
        { authorization: 'Bearer wrong-token-0123456789' },
        { authorization: TOKEN },
        { authorization: `Basic ${TOKEN}` },
      ];
      for (const headers of attempts) {
        const res = await h().request('GET', '/metrics', { headers });
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
        assert.doesNotMatch(res.text, /linkpix_/);
      }
    });

    test('with the token: the text format, the process metrics and the event loop lag', async () => {
      const samples = await scrape(h());
      for (const name of [
        'nodejs_eventloop_lag_seconds',
        'process_cpu_seconds_total',
        'linkpix_clicks_pending',
        'linkpix_redirect_duration_seconds_count',
        'linkpix_link_cache_stale_total',
      ]) {
        assert.ok(hasMetric(samples, name), `${name} is missing`);
      }
      // The dependencies this instance uses, and only those.
      assert.equal(hasMetric(samples, 'linkpix_dependency_up'), h().engine === 'postgres');
      if (h().engine === 'postgres')
        assert.equal(metricValue(samples, 'linkpix_dependency_up', { dependency: 'postgresql' }), 1);
    });

    test('a redirect, an API call, a cache miss then hits, and clicks written move their counters', async () => {
      const before = await scrape(h());
      const { key } = await h().account();
      const link = await makeLink(h(), key);
      // The first visit reads the link (a miss, through the route); the next two take the fast path.
      for (let i = 0; i < 3; i++) assert.equal((await visit(h(), `/${link.alias}`)).status, 302);
      assert.equal((await visit(h(), `/${link.alias}`, {}, 'HEAD')).status, 302);
      await h().server.container.visits.sink.flush();
      const after = await scrape(h());
      const moved = (name: string, labels: Record<string, string> = {}) =>
        metricValue(after, name, labels) - metricValue(before, name, labels);

      assert.equal(moved('linkpix_http_requests_total', { route: '/api/v1/links', status: '201' }), 1);
      assert.equal(moved('linkpix_http_requests_total', { route: '/:alias', status: '302' }), 4);
      assert.equal(moved('linkpix_redirect_duration_seconds_count', { door: 'route' }), 1);
      assert.equal(moved('linkpix_redirect_duration_seconds_count', { door: 'fast' }), 3);
      assert.equal(moved('linkpix_redirect_duration_seconds_bucket', { door: 'fast', le: '+Inf' }), 3);
      assert.ok(moved('linkpix_redirect_duration_seconds_sum', { door: 'fast' }) > 0);
      assert.equal(moved('linkpix_link_cache_lookups_total', { result: 'miss' }), 1);
      assert.equal(moved('linkpix_link_cache_lookups_total', { result: 'hit' }), 3);
      // HEAD records no click.
      assert.equal(moved('linkpix_clicks_recorded_total'), 3);
      assert.equal(moved('linkpix_clicks_written_total'), 3);
      assert.equal(metricValue(after, 'linkpix_clicks_pending'), 0);
      assert.equal(metricValue(after, 'linkpix_clicks_dropped_total'), 0);
      assert.ok(moved('linkpix_click_flush_duration_seconds_count') >= 1);
    });

    test('API and web answers carry a request id; a visitor’s redirect does not', async () => {
      const health = await h().request('GET', '/health');
      assert.match(health.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      const login = await h().request('GET', '/login', { headers: { accept: 'text/html' } });
      assert.match(login.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      // Without TRUST_PROXY, a client's own X-Request-Id is not taken.
      const sent = await h().request('GET', '/health', { headers: { 'x-request-id': 'chosen-by-client' } });
      assert.notEqual(sent.headers.get('x-request-id'), 'chosen-by-client');
      const { key } = await h().account();
      const link = await makeLink(h(), key);
      for (let i = 0; i < 2; i++) assert.equal((await visit(h(), `/${link.alias}`)).headers['x-request-id'], undefined);
    });
  },
  { env: { METRICS_TOKEN: TOKEN } },
);
