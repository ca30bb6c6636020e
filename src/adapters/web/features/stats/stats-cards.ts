import { html, type RawHtml } from '../../../shared/html/html.ts';
import { renderTimeSeries } from '../../ui/charts/time-series.ts';
import { renderWorldMap } from '../../ui/charts/world-map.ts';
import type { StatsList } from './stats-frame.ts';
import { framedPath, type StatsFrame, type TableName } from './stats-view.ts';

// The figures of the statistics pages: the world map, the clicks chart and the overview's cards.

/** The world map of a list of countries (a table on the page lists its numbers). */
export function countriesMap(frame: StatsFrame, countries: StatsList) {
  const t = frame.view.t.stats;
  return renderWorldMap({
    id: 'stats-map',
    caption: t.chart.map,
    // The other entry is no country: the card's or the page's table lists it.
    counts: countries.items.filter((e) => !e.other).map((e) => ({ code: e.value ?? '', count: e.count })),
    folded: countries.items.filter((e) => e.other).reduce((sum, e) => sum + e.count, 0),
    locale: frame.view.fmt.locale,
    table: 'none',
    labels: { countryColumn: t.columns.countries, valueColumn: t.columns.clicks, unknownCountry: t.unknown },
  });
}

/** The clicks of a range as a time chart, per day or (one day, or the hours' table) per hour. */
export function clicksChart(frame: StatsFrame, series: StatsList, unit: 'day' | 'hour', id: string) {
  const t = frame.view.t.stats;
  return renderTimeSeries({
    id,
    caption: unit === 'hour' ? t.chart.perHour : t.chart.perDay,
    points: series.items.map((e) => ({ label: e.value ?? '', value: e.count })),
    unit,
    locale: frame.view.fmt.locale,
    timeZone: frame.timeZone,
    labels: { valueColumn: t.columns.clicks, showTable: t.showTable },
  });
}

/** One card of the overview's grid: a table's top entries, a figure above them, and a link to the whole table. */
export function topCard(frame: StatsFrame, table: TableName, items: RawHtml | string, figure: RawHtml | string = '') {
  const t = frame.view.t.stats;
  const title = t.top(t.tables[table]);
  return html`<section class="stats-top${figure ? ' stats-top-map' : ''}" aria-labelledby="top-${table}">
<h2 id="top-${table}">${title}</h2>
${figure}${items}
<p><a href="${framedPath(frame, table)}">${t.all(t.tables[table])}</a></p>
</section>`;
}
