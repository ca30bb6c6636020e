import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { DurationHistogram } from './duration-histogram.ts';
import { registerHistogram } from './prom-histogram.ts';
import { metricValue, parseMetrics } from '../../../test/support/metrics-text.ts';

test("counts kept apart read as a Prometheus histogram: cumulative buckets, +Inf, sum and count, each series' labels", async () => {
  const fast = new DurationHistogram([0.001, 0.01]);
  const slow = new DurationHistogram([0.001, 0.01]);
  for (const ms of [0.5, 5, 50]) fast.observe(ms);
  slow.observe(2);
  const registry = new Registry();
  registerHistogram(registry, 'x_seconds', 'How long.', () => [
    { labels: { door: 'fast' }, histogram: fast },
    { labels: { door: 'route' }, histogram: slow },
  ]);
  const text = await registry.metrics();
  assert.match(text, /^# HELP x_seconds How long\.\n# TYPE x_seconds histogram\n/);
  const samples = parseMetrics(text);
  const fastBuckets = samples
    .filter((s) => s.name === 'x_seconds_bucket' && s.labels.door === 'fast')
    .map((s) => [s.labels.le, s.value]);
  assert.deepEqual(fastBuckets, [
    ['0.001', 1],
    ['0.01', 2],
    ['+Inf', 3],
  ]);
  assert.equal(metricValue(samples, 'x_seconds_count', { door: 'fast' }), 3);
  assert.ok(Math.abs(metricValue(samples, 'x_seconds_sum', { door: 'fast' }) - 0.0555) < 1e-9);
  assert.equal(metricValue(samples, 'x_seconds_bucket', { door: 'route', le: '0.001' }), 0);
  assert.equal(metricValue(samples, 'x_seconds_count', { door: 'route' }), 1);
  // Read again at the next scrape, not kept from the last.
  fast.observe(0.1);
  assert.equal(metricValue(parseMetrics(await registry.metrics()), 'x_seconds_count', { door: 'fast' }), 4);
});
