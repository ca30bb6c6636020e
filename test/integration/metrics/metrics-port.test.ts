// GET /metrics on a port of its own (METRICS_PORT, on METRICS_HOST): served there without a
// token, never on the app's port; and, behind a trusted proxy (TRUST_PROXY), the proxy's
// X-Request-Id is the request's id.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, startHarness, type Harness } from '../../support/harness.ts';
import { freePort } from '../../support/processes.ts';
import { metricValue, parseMetrics } from '../../support/metrics-text.ts';
import { makeLink, visit } from '../redirect/redirect-support.ts';

for (const engine of ENGINES) {
  describe(`metrics: GET /metrics on METRICS_PORT [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let h: Harness;
    let port: number;
    before(async () => {
      port = await freePort();
      h = await startHarness(engine.name, { env: { METRICS_PORT: String(port), TRUST_PROXY: 'true' } });
    });
    after(() => h.close());

    test('the metrics port serves /metrics without a token, and nothing else', async () => {
      assert.equal(h.server.metricsServer?.port, port);
      const { key } = await h.account();
      const link = await makeLink(h, key);
      await visit(h, `/${link.alias}`);
      await visit(h, `/${link.alias}`);
      await h.server.container.visits.sink.flush();
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
      const samples = parseMetrics(await res.text());
      assert.equal(metricValue(samples, 'linkpix_http_requests_total', { route: '/:alias', status: '302' }), 2);
      assert.equal(metricValue(samples, 'linkpix_clicks_written_total'), 2);
      assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status, 405);
    });

    test("the app's own port does not serve /metrics", async () => {
      const res = await h.request('GET', '/metrics', { headers: { accept: 'text/html' } });
      assert.equal(res.status, 404);
      assert.doesNotMatch(res.text, /linkpix_/);
    });

    test("a trusted proxy's X-Request-Id is the request's id; a malformed one is replaced", async () => {
      const kept = await h.request('GET', '/health', { headers: { 'x-request-id': 'lb-7f3a-0001' } });
      assert.equal(kept.headers.get('x-request-id'), 'lb-7f3a-0001');
      const replaced = await h.request('GET', '/health', { headers: { 'x-request-id': 'x'.repeat(200) } });
      assert.match(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });
  });
}
