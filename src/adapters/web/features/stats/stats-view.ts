// Markup of the statistics pages: pure functions of what the routes read (stats-pages.ts).
import type { Link } from '../../../../core/links/link.ts';
import type { DayRange } from '../../../../core/stats/range.ts';
import { RANGE_PRESETS, type RangePreset } from '../../../../core/stats/range-presets.ts';
import type { StatsHeadline } from '../../../../core/stats/stats-service.ts';
import { filterQuery, type FilterName, type StatsFilter } from '../../../../core/stats/stats-filter.ts';
import type { ValueCount } from '../../../../core/stats/stats-store.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { csrfField, errorSummary, pagination, selectField, textField, withQuery } from '../../ui/components.ts';
import type { Formatter } from '../../i18n/format.ts';
import { dateTimeFormat, displayNames, keptText, numberFormat } from '../../i18n/intl-formats.ts';
import { liveClicks } from '../live/live-view.ts';
import { formatsFor } from '../../ui/charts/format.ts';

/** The tables of a link's statistics, by their path segment, and the stats API's name of each. */
export const TABLES = {
  countries: 'country',
  cities: 'cities',
  referrers: 'referrer',
  browsers: 'browser',
  platforms: 'platform',
  devices: 'device',
  languages: 'language',
  hours: 'clicks_hours',
} as const;
export type TableName = keyof typeof TABLES;

/** The filter a value of each table sets when clicked (hours are the range's, not a filter). */
const TABLE_FILTER: Readonly<Record<TableName, FilterName | null>> = {
  countries: 'country',
  cities: 'city',
  referrers: 'referrer',
  browsers: 'browser',
  platforms: 'platform',
  devices: 'device',
  languages: 'language',
  hours: null,
};

/** The table of each filter's values, to word a chip as its column does. */
const FILTER_TABLE = Object.fromEntries(
  Object.entries(TABLE_FILTER).flatMap(([table, filter]) => (filter ? [[filter, table]] : [])),
) as Record<FilterName, Exclude<TableName, 'hours'>>;

export function isTableName(name: string): name is TableName {
  return Object.hasOwn(TABLES, name);
}

/** What every page of one link's statistics shows around its own content. */
export interface StatsFrame {
  view: View;
  /** Dates in the owner's zone, numbers in the viewer's language. */
  fmt: Formatter;
  link: Link;
  shortUrl: string;
  /** The link's destination as this viewer may read it; null: withheld (stats-access.ts, showsDestination). */
  destination: string | null;
  /** The link's title as this viewer may read it (it is read from the destination's page); null: none or withheld. */
  title: string | null;
  /** The owner: every value, any days, the edit link. Anyone else: rare values folded, presets only. */
  isOwner: boolean;
  timeZone: string;
  range: DayRange;
  /** The preset in the URL, or null (custom or the default). */
  preset: RangePreset | null;
  /** The query of the page (search, sort…), kept by the range links. */
  query: Record<string, string | undefined>;
  /** '' for the overview, else the table's name. */
  current: TableName | '';
  /** The page's filters: the owner's from the URL, none for anyone else (they are ignored). */
  filters: readonly StatsFilter[];
}

export const statsPath = (linkId: number, table: TableName | '' = '') =>
  table ? `/stats/${linkId}/${table}` : `/stats/${linkId}`;

/** The range's part of a query (a preset by name, else the dates) and the filters, which every link of the page keeps. */
function rangeQuery(frame: Pick<StatsFrame, 'preset' | 'range' | 'filters'>): Record<string, string | undefined> {
  const range = frame.preset
    ? { range: frame.preset, from: undefined, to: undefined }
    : { range: undefined, from: frame.range.from, to: frame.range.to };
  return { ...range, ...filterQuery(frame.filters) };
}

/** A page of the link's statistics with the frame's range and filters. */
export const framedPath = (frame: StatsFrame, table: TableName | '') =>
  withQuery(statsPath(frame.link.id, table), rangeQuery(frame), {});

const hiddenInputs = (query: Record<string, string | undefined>) =>
  Object.entries(query).map(([k, v]) => (v ? html`<input type="hidden" name="${k}" value="${v}">` : ''));

/** A value as people read it: country and language names in the viewer's language, hours as spans. */
function valueLabel(view: View, table: TableName, entry: ValueCount): string {
  const t = view.t.stats;
  const { value } = entry;
  if (entry.other) return t.other;
  if (value === null || value === '') return table === 'referrers' ? t.direct : t.unknown;
  try {
    const { locale } = view.fmt;
    if (table === 'countries')
      return keptText(
        `region ${locale}`,
        value.toUpperCase(),
        () => displayNames(locale, { type: 'region', fallback: 'code' }).of(value.toUpperCase()) ?? value,
      );
    if (table === 'languages')
      return keptText(
        `language ${locale}`,
        value,
        () => displayNames(locale, { type: 'language', fallback: 'code' }).of(value) ?? value,
      );
  } catch {
    // A code Intl does not take (RangeError) is shown as stored.
    return value;
  }
  const names = view.t.common.visitorNames;
  if (table === 'devices') return storedName(names.devices, value);
  if (table === 'platforms') return storedName(names.platforms, value);
  // The chart's own format of an hour, so that the page writes hours one way.
  if (table === 'hours') return formatsFor(view.fmt.locale, 'hour').label(value);
  return value;
}

/** A host name that a narrow column wraps after its dots, never inside a word. */
function breakableHost(host: string): RawHtml {
  return html`${host.split('.').map((part, i) => (i === 0 ? part : html`.<wbr>${part}`))}`;
}

/** A stored value's name on pages ("OS X" → "macOS"), or the value itself when it has none. */
const storedName = (names: Readonly<Record<string, string>>, value: string): string =>
  Object.hasOwn(names, value) ? names[value]! : value;

/** A calendar day (YYYY-MM-DD, already the owner's) in full: "10 Mar 2026". */
function dayText(locale: string, isoDay: string): string {
  return dateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(`${isoDay}T00:00:00Z`));
}

function percent(locale: string, part: number, whole: number): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(whole > 0 ? part / whole : 0);
}

export function linkHeader(frame: StatsFrame): RawHtml {
  const { view, link } = frame;
  const t = view.t.stats;
  return html`<h1>${t.title(frame.title ?? frame.shortUrl)}</h1>
<section aria-labelledby="stats-link-title" class="stats-link">
<h2 id="stats-link-title" class="visually-hidden">${t.link.label}</h2>
<dl class="stats-facts">
<div><dt>${t.link.shortUrl}</dt><dd class="url"><a href="${frame.shortUrl}" rel="nofollow noreferrer">${frame.shortUrl}</a></dd></div>
<div><dt>${t.link.destination}</dt>${frame.destination !== null ? html`<dd class="url">${frame.destination}</dd>` : html`<dd class="muted">${t.withheld}</dd>`}</div>
<div><dt>${t.link.created}</dt><dd>${frame.fmt.date(link.createdAt)}</dd></div>
</dl>
${frame.isOwner ? html`<p>${view.can('links.write') ? html`<a href="/links/${link.id}/edit">${t.link.edit}</a> · ` : ''}<a href="/links/${link.id}/conversions">${view.t.conversions.title}</a></p>` : ''}
</section>`;
}

export function sectionNav(frame: StatsFrame): RawHtml {
  const t = frame.view.t.stats;
  const keep = rangeQuery(frame);
  const item = (table: TableName | '', label: string) =>
    html`<li><a href="${withQuery(statsPath(frame.link.id, table), keep, {})}"${frame.current === table ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const tables = (Object.keys(TABLES) as TableName[]).map((name) => item(name, t.tables[name]));
  return html`<nav class="stats-nav" aria-label="${t.sections}"><ul>${item('', t.overview)}${tables}</ul></nav>`;
}

/** Presets as links (a GET each), a custom range as a GET form; the range stays in the URL. */
export function rangeControls(
  frame: StatsFrame,
  errors?: FieldErrors,
  typed?: { from?: string | undefined; to?: string | undefined },
): RawHtml {
  const { view } = frame;
  const t = view.t.stats.range;
  const path = statsPath(frame.link.id, frame.current);
  const keep = { search: frame.query.search, sort: frame.query.sort, ...filterQuery(frame.filters) };
  const presets = RANGE_PRESETS.map(
    (p) =>
      html`<li><a href="${withQuery(path, keep, { range: p })}"${frame.preset === p && !errors ? html` aria-current="true"` : ''}>${t.presets[p]}</a></li>`,
  );
  const hidden = hiddenInputs(keep);
  const from = typed?.from ?? frame.range.from;
  const to = typed?.to ?? frame.range.to;
  return html`<section class="stats-range" aria-labelledby="stats-range-title">
<h2 id="stats-range-title">${t.label}</h2>
${errorSummary(view, errors)}
<ul class="stats-presets">${presets}</ul>
${
  frame.isOwner
    ? html`<details class="stats-custom-details"${errors || !frame.preset ? html` open` : ''}><summary>${t.presets.custom}</summary>
<form method="get" action="${path}" class="toolbar stats-custom">
<fieldset><legend class="visually-hidden">${t.presets.custom}</legend>
${hidden}
${textField({ name: 'from', label: t.from, type: 'date', value: from, errors })}
${textField({ name: 'to', label: t.to, type: 'date', value: to, errors })}
<div class="actions"><button type="submit" class="secondary">${t.show}</button></div>
</fieldset>
</form></details>`
    : ''
}
${errors ? '' : html`<p class="stats-current"><strong>${t.current(dayText(view.fmt.locale, frame.range.from), dayText(view.fmt.locale, frame.range.to), frame.timeZone)}</strong> <span class="muted">(<span data-range-from>${frame.range.from}</span> – <span data-range-to>${frame.range.to}</span>)</span></p>`}
</section>`;
}

/** `live`: the range runs to today, unfiltered, and the owner is looking: the total goes on counting (live.js). */
export function totalsCards(frame: StatsFrame, headline: StatsHeadline, live = false): RawHtml {
  const { view } = frame;
  const t = view.t.stats.totals;
  const n = (x: number) => view.fmt.number(x);
  const { summary, previous, change } = headline;
  const growth =
    change === null
      ? '—'
      : numberFormat(view.fmt.locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(
          change,
        );
  const direction = change === null || change === 0 ? '' : change > 0 ? 'up' : 'down';
  return html`<section aria-labelledby="stats-totals-title">
<h2 id="stats-totals-title" class="visually-hidden">${t.label}</h2>
<dl class="cards stats-cards">
<div class="card"><dt>${t.clicks}</dt><dd class="value" data-stat="total"${live ? liveClicks(summary.total, frame.link.id) : ''}>${n(summary.total)}</dd></div>
<div class="card"><dt>${t.unique}</dt>${
    summary.unique === null
      ? html`<dd class="value" data-stat="unique">—</dd><dd class="hint">${t.uniqueFiltered}</dd>`
      : html`<dd class="value" data-stat="unique">${n(summary.unique)}</dd><dd class="hint">${t.uniqueHint}</dd>`
  }</div>
<div class="card"><dt>${t.bots}</dt><dd class="value" data-stat="bots">${n(summary.bots)}</dd><dd class="hint">${t.botsHint}</dd></div>
<div class="card"><dt>${t.growth}</dt><dd class="value"${direction ? html` data-change="${direction}"` : ''} data-stat="growth">${growth}</dd><dd class="hint">${change === null ? html`${t.growthNone} ` : ''}${t.previous(dayText(view.fmt.locale, previous.range.from), dayText(view.fmt.locale, previous.range.to), n(previous.total))}</dd></div>
</dl>
</section>`;
}

/** The page's filters as chips, each with a link that removes it; what they leave uncounted. */
export function filterChips(
  frame: StatsFrame,
  counted: { countedSince: number | null; countedNewestOnly: boolean },
): RawHtml | string {
  if (frame.filters.length === 0) return '';
  const { view } = frame;
  const t = view.t.stats.filters;
  const path = statsPath(frame.link.id, frame.current);
  const keep = { ...rangeQuery(frame), search: frame.query.search, sort: frame.query.sort };
  const chips = frame.filters.map((f) => {
    const table = FILTER_TABLE[f.name];
    const text = t.chip(view.t.stats.columns[table], valueLabel(view, table, { value: f.value, count: 0 }));
    return html`<li class="stats-chip"><span>${text}</span> <a class="stats-chip-remove" href="${withQuery(path, keep, { [f.name]: undefined })}"><span aria-hidden="true">×</span><span class="visually-hidden">${t.remove(text)}</span></a></li>`;
  });
  const none = Object.fromEntries(frame.filters.map((f) => [f.name, undefined]));
  return html`<section class="stats-filters" aria-labelledby="stats-filters-title">
<h2 id="stats-filters-title" class="visually-hidden">${t.label}</h2>
<ul class="stats-chips">${chips}</ul>
${frame.filters.length > 1 ? html`<p><a href="${withQuery(path, keep, none)}">${t.clear}</a></p>` : ''}
<p class="hint">${counted.countedSince === null ? t.note : counted.countedNewestOnly ? t.noteNewest(frame.fmt.date(counted.countedSince)) : t.noteSince(frame.fmt.date(counted.countedSince))}</p>
</section>`;
}

/** A table of values and their clicks, with each one's share of the period's clicks. */
export function valueTable(
  frame: StatsFrame,
  table: TableName,
  caption: string,
  items: readonly ValueCount[],
  total: number,
): RawHtml {
  const { view } = frame;
  const c = view.t.stats.columns;
  if (items.length === 0) return html`<p class="muted">${view.t.stats.none}</p>`;
  const filter = frame.isOwner ? TABLE_FILTER[table] : null;
  const label = (e: ValueCount) => {
    const text = valueLabel(view, table, e);
    const shown = table === 'referrers' && e.value !== null && !e.other ? breakableHost(text) : text;
    if (!filter || e.value === null || e.other || frame.filters.some((f) => f.name === filter)) return shown;
    const href = withQuery(statsPath(frame.link.id), rangeQuery(frame), { [filter]: e.value });
    // The name begins with what the row says of it, then says what a click does.
    return html`<a href="${href}" class="stats-filter-link" aria-label="${view.t.stats.filters.by(c[table], text)}">${shown}</a>`;
  };
  const rows = items.map(
    (e) =>
      html`<tr${e.other ? html` data-other` : ''}><th scope="row"${e.value === null ? html` class="muted"` : ''}>${label(e)}</th><td class="num">${view.fmt.number(e.count)}</td><td class="num">${percent(view.fmt.locale, e.count, total)}</td></tr>`,
  );
  return html`<div class="table-wrap"><table class="stats-table"><caption>${caption}</caption>
<thead><tr><th scope="col">${c[table]}</th><th scope="col" class="num">${c.clicks}</th><th scope="col" class="num">${c.share}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** Why a public page shows "Other": said once a page, where its numbers are folded. */
export function foldingNote(frame: StatsFrame, foldedBelow: number | null): RawHtml | string {
  if (foldedBelow === null || foldedBelow <= 1) return '';
  return html`<p class="hint" data-folded-below="${String(foldedBelow)}">${frame.view.t.stats.foldedNote(frame.view.fmt.number(foldedBelow))}</p>`;
}

export interface TableControls {
  search: string;
  sort: 'max' | 'min' | undefined;
  page: number;
  perPage: number;
  total: number;
}

/** The GET form of a full table (search, sort; the range kept) and its CSV link. */
export function tableToolbar(frame: StatsFrame, table: TableName, c: TableControls): RawHtml {
  const { view } = frame;
  const t = view.t.stats.toolbar;
  const keep = rangeQuery(frame);
  const hidden = hiddenInputs(keep);
  const exportHref = exportPath(frame, table, c);
  return html`<form method="get" action="${statsPath(frame.link.id, table)}" class="toolbar" role="search" aria-label="${t.label}">
${hidden}
${textField({ name: 'search', label: t.search, type: 'search', value: c.search, maxlength: 255 })}
${selectField({
  name: 'sort',
  label: t.sort,
  value: c.sort ?? '',
  options: [
    { value: '', label: t.sortDefault },
    { value: 'max', label: t.sortMax },
    { value: 'min', label: t.sortMin },
  ],
})}
<div class="actions"><button type="submit" class="secondary">${t.apply}</button><a class="button secondary" href="${exportHref}" download>${t.export}</a></div>
</form>`;
}

/** What /stats/:id/export/:name gives: a table, or the overview's clicks per day. */
export type ExportName = TableName | 'clicks';

export const isExportName = (name: string): name is ExportName => name === 'clicks' || isTableName(name);

/** The stats API's name of an export. */
export const exportedList = (name: ExportName) => (name === 'clicks' ? 'clicks' : TABLES[name]);

const exportPath = (frame: StatsFrame, table: ExportName, c?: Pick<TableControls, 'search' | 'sort'>) =>
  withQuery(`/stats/${frame.link.id}/export/${table}`, rangeQuery(frame), { search: c?.search, sort: c?.sort });

/** A table's CSV on its own, where the page has no toolbar. */
export function exportLink(frame: StatsFrame, table: ExportName): RawHtml {
  return html`<p><a class="button secondary" href="${exportPath(frame, table)}" download>${frame.view.t.stats.toolbar.export}</a></p>`;
}

export function tablePager(frame: StatsFrame, table: TableName, c: TableControls): RawHtml {
  const query = { ...rangeQuery(frame), search: c.search, sort: c.sort };
  return pagination(frame.view, {
    page: c.page,
    perPage: c.perPage,
    total: c.total,
    hrefFor: (page) => withQuery(statsPath(frame.link.id, table), query, { page }),
  });
}

/** The form of a password-protected link's statistics. */
export function passwordForm(view: View, linkId: number, next: string, errors?: FieldErrors): RawHtml {
  const t = view.t.stats.password;
  return html`<h1>${t.title}</h1>
${errorSummary(view, errors)}
<p>${t.intro}</p>
<form method="post" action="/stats/${linkId}/password" class="stack" novalidate>
${csrfField(view)}
<input type="hidden" name="next" value="${next}">
${textField({ name: 'password', label: t.field, type: 'password', errors, autocomplete: 'current-password', required: true })}
<div class="actions"><button type="submit">${t.submit}</button></div>
</form>`;
}
