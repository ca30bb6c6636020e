// Clicks over time as a server-rendered SVG: bars (the default) or a line over an area, with the
// same data as a table. Pure: data in, markup out; every value goes through the `html` tag.
//
// Class names (styled in ../charts.css; no style attributes, the CSP forbids inline styles):
//   figure   .chart .chart-time-series     figcaption .chart-caption, .chart-summary
//   svg      .chart-svg                    grid .chart-grid-line, .chart-tick-label (y and x)
//   axis     .chart-axis                   bars .chart-bar
//   line     .chart-line, .chart-area, .chart-dot
//   table    .chart-table inside details .chart-details ("Show as table")
//   ticks    .chart-tick-odd: every other x label, hidden on a narrow chart (charts.css)
import { scaleBand, scaleLinear } from 'd3-scale';
import { area, line } from 'd3-shape';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import {
  assertId,
  dataTable,
  figcaption,
  formatsFor,
  svgOpen,
  tableDisclosure,
  type ChartTable,
  type Formats,
  type SeriesUnit,
} from './format.ts';

export type { SeriesUnit } from './format.ts';

export interface SeriesPoint {
  /** A local day 'YYYY-MM-DD' (unit 'day'), an hour '0'..'23' (unit 'hour'), or any text. */
  label: string;
  value: number;
}

/** What the summary sentence is made of, formatted, for a catalogue to word. */
export interface SeriesSummary {
  unit: SeriesUnit;
  /** Number of points. */
  points: number;
  total: number;
  totalText: string;
  /** The first to the last label: "1–30 November 2026". */
  range: string;
  /** The highest point (the first of equals), or null when every value is 0 or there is none. */
  peak: { label: string; value: number; valueText: string } | null;
}

export interface TimeSeriesLabels {
  /** The table's first column: "Day", "Hour (Europe/Berlin)". */
  labelColumn: (unit: SeriesUnit, timeZone: string) => string;
  /** The table's value column and the noun of a bar's tooltip: "Clicks". */
  valueColumn: string;
  /** The sentence under the caption and in the SVG's description. */
  summary: (s: SeriesSummary) => string;
  /** The disclosure that opens the data table. */
  showTable: string;
}

const clicks = (n: number, text: string) => `${text} ${n === 1 ? 'click' : 'clicks'}`;

const ENGLISH_SERIES_LABELS: TimeSeriesLabels = {
  labelColumn: (unit, timeZone) => (unit === 'day' ? 'Day' : unit === 'hour' ? `Hour (${timeZone})` : 'Label'),
  valueColumn: 'Clicks',
  showTable: 'Show as table',
  summary: (s) => {
    if (s.points === 0) return 'No data.';
    const over = s.unit === 'hour' ? ' by hour of day' : s.points === 1 ? ` on ${s.range}` : `, ${s.range}`;
    if (!s.peak) return `No clicks${over}.`;
    if (s.points === 1) return `${clicks(s.total, s.totalText)}${over}.`;
    const busiest = s.unit === 'day' ? 'busiest day' : s.unit === 'hour' ? 'busiest hour' : 'highest';
    return `${clicks(s.total, s.totalText)}${over}; ${busiest} ${s.peak.label} with ${s.peak.valueText}.`;
  },
};

export interface TimeSeriesInput {
  /** Unique in the page: names the SVG's title and description (`${id}-title`, `${id}-desc`). */
  id: string;
  caption: string;
  points: readonly SeriesPoint[];
  unit: SeriesUnit;
  locale: string;
  /** The zone the days and hours are local to (the account's), named in the table's header. */
  timeZone: string;
  /** 'bars' (default) or 'line' (a line over an area, a dot per point up to 31 points). */
  kind?: 'bars' | 'line';
  /** 'disclosure' (default): the data table behind "Show as table"; 'none': the page lists the numbers itself. */
  table?: ChartTable;
  labels?: Partial<TimeSeriesLabels>;
}

const WIDTH = 640;
const HEIGHT = 240;
// The y labels sit inside the plot, under their grid lines: no margin to outgrow when a narrow
// chart draws its text larger (charts.css).
const MARGIN = { top: 12, right: 12, bottom: 34, left: 8 };
const X_LABELS = 8;
const DOTS_UP_TO = 31;

/** The values drawn: a negative or non-finite value is drawn as 0 (the table shows it as given). */
const drawn = (v: number) => (Number.isFinite(v) && v > 0 ? v : 0);

function summarize(points: readonly SeriesPoint[], unit: SeriesUnit, f: Formats): SeriesSummary {
  let total = 0;
  let peak: SeriesPoint | null = null;
  for (const p of points) {
    total += drawn(p.value);
    if (drawn(p.value) > 0 && (!peak || p.value > peak.value)) peak = p;
  }
  const first = points[0]?.label ?? '';
  const last = points[points.length - 1]?.label ?? '';
  return {
    unit,
    points: points.length,
    total,
    totalText: f.number(total),
    range: points.length > 0 ? f.range(first, last) : '',
    peak: peak && { label: f.label(peak.label), value: peak.value, valueText: f.number(peak.value) },
  };
}

/** A figure with the chart, its caption and summary, and the data as a table. */
export function renderTimeSeries(input: TimeSeriesInput): RawHtml {
  assertId(input.id);
  const labels = { ...ENGLISH_SERIES_LABELS, ...input.labels };
  const f = formatsFor(input.locale, input.unit);
  const summary = labels.summary(summarize(input.points, input.unit, f));
  // Each point's label and value in words, made once: the table and the tooltips both show them.
  const rows = input.points.map((p) => [f.label(p.label), f.number(p.value)] as const);
  return html`<figure class="chart chart-time-series">${figcaption(input.caption, summary)}${svgOpen(input.id, 'chart-svg', WIDTH, HEIGHT, input.caption, summary)}${plot(input, f, labels.valueColumn, rows)}</svg>${tableDisclosure(input.table, labels.showTable, dataTable(input.caption, [labels.labelColumn(input.unit, input.timeZone), labels.valueColumn], rows))}</figure>`;
}

function plot(
  input: TimeSeriesInput,
  f: Formats,
  valueName: string,
  texts: ReadonlyArray<readonly [string, string]>,
): RawHtml {
  const points = input.points;
  const bottom = HEIGHT - MARGIN.bottom;
  const max = Math.max(0, ...points.map((p) => drawn(p.value)));
  const y = scaleLinear()
    .domain([0, max > 0 ? max : 1])
    .nice()
    .range([bottom, MARGIN.top]);
  const x = scaleBand<number>()
    .domain(points.map((_, i) => i))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const center = (i: number) => (x(i) ?? 0) + x.bandwidth() / 2;
  // Zero is the axis: its label would sit among the x labels.
  const yTicks = y.ticks(4).filter((t) => Number.isInteger(t) && t > 0);
  const grid = yTicks.map(
    (t) =>
      html`<line class="chart-grid-line" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(t)}" y2="${y(t)}"/><text class="chart-tick-label chart-y-label" x="${MARGIN.left + 2}" y="${round(y(t) + 3)}" dominant-baseline="hanging">${f.tick(t)}</text>`,
  );
  const step = Math.max(1, Math.ceil(points.length / X_LABELS));
  const xTicks = points.map((p, i) =>
    i % step === 0
      ? html`<text class="${(i / step) % 2 === 1 ? 'chart-tick-label chart-tick-odd' : 'chart-tick-label'}" x="${round(center(i))}" y="${bottom + 4}" text-anchor="middle" dominant-baseline="hanging">${f.axisLabel(p.label)}</text>`
      : null,
  );
  const tooltip = (i: number) => `${texts[i]![0]}: ${texts[i]![1]} (${valueName})`;
  let marks: RawHtml | null = null;
  if (points.length === 0) {
    // Nothing to draw: the axis and the grid alone.
  } else if (input.kind === 'line') {
    const lineD =
      line<SeriesPoint>(
        (_, i) => center(i),
        (p) => y(drawn(p.value)),
      ).digits(1)(points) ?? '';
    const areaD =
      area<SeriesPoint>(
        (_, i) => center(i),
        bottom,
        (p) => y(drawn(p.value)),
      ).digits(1)(points) ?? '';
    const dots =
      points.length <= DOTS_UP_TO
        ? points.map(
            (p, i) =>
              html`<circle class="chart-dot" cx="${round(center(i))}" cy="${round(y(drawn(p.value)))}" r="3"><title>${tooltip(i)}</title></circle>`,
          )
        : null;
    marks = html`<path class="chart-area" d="${areaD}"/><path class="chart-line" d="${lineD}"/>${dots}`;
  } else {
    marks = html`${points.map((p, i) => {
      const v = drawn(p.value);
      if (v === 0) return null;
      return html`<rect class="chart-bar" x="${round(x(i) ?? 0)}" y="${round(y(v))}" width="${round(x.bandwidth())}" height="${round(bottom - y(v))}"><title>${tooltip(i)}</title></rect>`;
    })}`;
  }
  return html`<g class="chart-grid">${grid}</g>${marks}<line class="chart-axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${bottom}" y2="${bottom}"/><g>${xTicks}</g>`;
}

const round = (n: number) => Math.round(n * 10) / 10;
