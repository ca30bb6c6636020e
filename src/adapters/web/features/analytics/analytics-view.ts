import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { DayRange } from '../../../../core/stats/range.ts';
import {
  WORKSPACE_STATS_NAMES,
  type WorkspaceStatsName,
  type WorkspaceValueCount,
} from '../../../../core/analytics/workspace-stats.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { renderTimeSeries } from '../../ui/charts/time-series.ts';
import { errorSummary, textField, withQuery } from '../../ui/components.ts';
import { numberFormat } from '../../i18n/intl-formats.ts';
import type { View } from '../../app/view.ts';
import { liveClicks } from '../live/live-view.ts';

export type AnalyticsTable = Exclude<WorkspaceStatsName, 'clicks'>;
/** Every breakdown the API names but `clicks` (the chart), in the API's order. */
export const ANALYTICS_TABLES: readonly AnalyticsTable[] = WORKSPACE_STATS_NAMES.filter(
  (name): name is AnalyticsTable => name !== 'clicks',
);
export const ANALYTICS_PRESETS = { last7: 7, last30: 30, last90: 90, last365: 365 } as const;
export type AnalyticsPreset = keyof typeof ANALYTICS_PRESETS;

export const ANALYTICS_PATH = '/dashboard/analytics';

export interface AnalyticsData {
  range: DayRange;
  timeZone: string;
  /** The range ends today: the page follows the workspace's clicks live (live.js). */
  live: boolean;
  total: number;
  days: readonly WorkspaceValueCount[];
  tables: ReadonlyMap<AnalyticsTable, readonly WorkspaceValueCount[]>;
}

const rangeQuery = (range: DayRange) => ({ from: range.from, to: range.to });

function rangeSection(
  view: View,
  data: AnalyticsData,
  errors?: FieldErrors,
  typed?: { from?: string | undefined; to?: string | undefined },
): RawHtml {
  const t = view.t.analytics;
  const presets = (Object.keys(ANALYTICS_PRESETS) as AnalyticsPreset[]).map(
    (p) => html`<li><a href="${withQuery(ANALYTICS_PATH, {}, { range: p })}">${t.presets[p]}</a></li>`,
  );
  return html`<section class="stats-range" aria-labelledby="analytics-range-title">
<h2 id="analytics-range-title">${t.rangeTitle}</h2>
${errorSummary(view, errors)}
<ul class="stats-presets">${presets}</ul>
<form method="get" action="${ANALYTICS_PATH}" class="toolbar stats-custom">
${textField({ name: 'from', label: t.from, type: 'date', value: typed?.from ?? data.range.from, errors })}
${textField({ name: 'to', label: t.to, type: 'date', value: typed?.to ?? data.range.to, errors })}
<div class="actions"><button type="submit" class="secondary">${t.show}</button></div>
</form>
${errors ? '' : html`<p class="stats-current"><strong>${t.current(view.fmt.day(data.range.from), view.fmt.day(data.range.to), data.timeZone)}</strong></p>`}
</section>`;
}

function csvLink(view: View, name: WorkspaceStatsName, range: DayRange, label: string): RawHtml {
  const href = withQuery(`${ANALYTICS_PATH}/export/${name}`, rangeQuery(range), {});
  return html`<p><a class="button secondary" href="${href}" download aria-label="${view.t.analytics.csvOf(label)}">${view.t.analytics.csv}</a></p>`;
}

function clicksSection(view: View, data: AnalyticsData): RawHtml {
  const t = view.t.analytics;
  const d = view.t.dashboard;
  const chart = renderTimeSeries({
    id: 'analytics-clicks',
    caption: t.chartCaption(view.fmt.day(data.range.from), view.fmt.day(data.range.to)),
    points: data.days.map((day) => ({ label: day.value ?? '', value: day.count })),
    unit: 'day',
    locale: view.fmt.locale,
    timeZone: data.timeZone,
    labels: {
      labelColumn: () => d.day,
      valueColumn: d.clicks,
      showTable: t.showTable,
      summary: (s) => d.chartSummary(s.total, s.totalText, s.range, s.peak),
    },
  });
  const total = html`<div class="cards"><div class="card"><p class="muted">${t.total}</p><p class="value"${data.live ? liveClicks(data.total) : ''}>${view.fmt.number(data.total)}</p></div></div>`;
  return html`<section aria-labelledby="analytics-chart-title">
<h2 id="analytics-chart-title">${t.chartTitle}</h2>
${total}
<div class="table-wrap">${chart}</div>
${csvLink(view, 'clicks', data.range, t.chartTitle)}
</section>`;
}

function valueLabel(view: View, table: AnalyticsTable, e: WorkspaceValueCount): RawHtml | string {
  const t = view.t.analytics;
  if (table === 'links' && e.linkId !== undefined) return html`<a href="/stats/${e.linkId}">${e.value ?? ''}</a>`;
  if (table === 'qr') return e.value === 'qr' ? t.qr : t.other;
  return e.value ?? t.none[table];
}

function breakdown(view: View, data: AnalyticsData, table: AnalyticsTable): RawHtml {
  const t = view.t.analytics;
  const items = data.tables.get(table) ?? [];
  const title = t.tables[table];
  const percent = numberFormat(view.fmt.locale, { style: 'percent', maximumFractionDigits: 1 });
  const rows = items.map(
    (e) =>
      html`<tr><th scope="row"${e.value === null ? html` class="muted"` : ''}>${valueLabel(view, table, e)}</th><td class="num">${view.fmt.number(e.count)}</td><td class="num">${percent.format(data.total > 0 ? e.count / data.total : 0)}</td></tr>`,
  );
  const body =
    items.length === 0 || items.every((e) => e.count === 0)
      ? html`<p class="muted">${t.noClicks}</p>`
      : html`<div class="table-wrap"><table class="stats-table"><caption class="visually-hidden">${title}</caption>
<thead><tr><th scope="col">${t.columns[table]}</th><th scope="col" class="num">${t.columns.clicks}</th><th scope="col" class="num">${t.columns.share}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  return html`<section class="stats-top" aria-labelledby="analytics-${table}">
<h2 id="analytics-${table}">${title}</h2>
${body}
${csvLink(view, table, data.range, title)}
</section>`;
}

export function analyticsMain(
  view: View,
  data: AnalyticsData,
  errors?: FieldErrors,
  typed?: { from?: string | undefined; to?: string | undefined },
): RawHtml {
  const t = view.t.analytics;
  const live = data.live ? html` data-live-refresh="analytics" data-live-total="${data.total}"` : '';
  return html`<h1>${t.title}</h1>
<p>${t.intro}</p>
${rangeSection(view, data, errors, typed)}
<div id="analytics-live"${live}>
${clicksSection(view, data)}
<div class="stats-grid">${ANALYTICS_TABLES.map((table) => breakdown(view, data, table))}</div>
</div>`;
}
