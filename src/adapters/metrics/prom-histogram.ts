import type { Histogram, Registry } from 'prom-client';
import type { DurationHistogram } from './duration-histogram.ts';

export interface HistogramSeries {
  labels: Readonly<Record<string, string>>;
  histogram: DurationHistogram;
}

interface Value {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * Exposes histograms counted elsewhere (DurationHistogram) as one Prometheus histogram.
 * prom-client's own Histogram is filled only by observe(), a call per observation; its buckets
 * cannot be set from counts kept apart. So this is a metric of our own that answers get() in
 * the shape a prom-client Histogram answers it (its typed return value); the registry reads
 * nothing else of a metric but its name (prom-histogram.test.ts holds it to the text format).
 */
export function registerHistogram(
  registry: Registry,
  name: string,
  help: string,
  series: () => readonly HistogramSeries[],
): void {
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      values: series().flatMap((s) => valuesOf(name, s)),
    }),
    reset: () => {},
  };
  // prom-client types a registered metric as one of its classes; this one has what the registry uses of them.
  registry.registerMetric(metric as unknown as Histogram);
}

function valuesOf(name: string, { labels, histogram }: HistogramSeries): Value[] {
  const values: Value[] = [];
  let cumulative = 0;
  histogram.bounds.forEach((le, i) => {
    cumulative += histogram.counts[i]!;
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
  });
  const count = cumulative + histogram.counts[histogram.bounds.length]!;
  values.push(
    { metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count },
    { metricName: `${name}_sum`, labels: { ...labels }, value: histogram.sumSeconds },
    { metricName: `${name}_count`, labels: { ...labels }, value: count },
  );
  return values;
}
