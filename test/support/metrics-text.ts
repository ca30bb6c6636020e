/**
 * Reads Prometheus's text exposition format (version 0.0.4) strictly enough for tests: every
 * line is a comment, a blank, or `name{label="value",…} number`; anything else throws.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+)|NaN|\+Inf|-Inf)$/i;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\.)*)"(?:,|$)/gy;
const COMMENT = /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/;

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || COMMENT.test(line)) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a line of Prometheus's text format: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? '';
    LABEL.lastIndex = 0;
    let end = 0;
    for (let m = LABEL.exec(body); m !== null; m = LABEL.exec(body)) {
      labels[m[1]!] = m[2]!;
      end = LABEL.lastIndex;
    }
    if (end !== body.length) throw new Error(`labels not read whole: ${JSON.stringify(line)}`);
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of this name whose labels include these; 0 when none. */
export function metricValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const s of samples) {
    if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) total += s.value;
  }
  return total;
}

/** Whether any sample has this name. */
export function hasMetric(samples: readonly Sample[], name: string): boolean {
  return samples.some((s) => s.name === name);
}
