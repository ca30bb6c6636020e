// Intl formatting shared by the charts: numbers, local days ('YYYY-MM-DD') and hours of the day
// ('0'..'23', '00'..'23'), each in the locale the page is rendered for.
//
// Days and hours come from the statistics already local to the account's time zone (a rollup is
// keyed by local day), so they are calendar values, not instants: they are formatted as UTC
// midnight / UTC hour, which shows the same day or hour whatever zone the server runs in.
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { dateTimeFormat, keptText, numberFormat } from '../../i18n/intl-formats.ts';

/** How a series' labels are read: local days, hours of the day, or text shown as given. */
export type SeriesUnit = 'day' | 'hour' | 'text';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR = /^\d{1,2}$/;

/** The instant that stands for a label of its unit (UTC), or null when the label is not one. */
function labelDate(unit: SeriesUnit, label: string): Date | null {
  if (unit === 'day') {
    const m = DAY.exec(label);
    if (!m) return null;
    const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return date.toISOString().startsWith(label) ? date : null;
  }
  if (unit === 'hour' && HOUR.test(label) && Number(label) < 24) return new Date(Date.UTC(2000, 0, 1, Number(label)));
  return null;
}

/** The formatters one chart needs, made once per render. */
export interface Formats {
  number: (n: number) => string;
  /** Axis numbers: compact (1.2K). */
  tick: (n: number) => string;
  /** A label in full (table rows, summary): "12 November 2026", "14:00"; text labels as given. */
  label: (label: string) => string;
  /** A label shortened for the axis: "12 Nov". */
  axisLabel: (label: string) => string;
  /** From the first label to the last: "1–30 November 2026" (one label: that label). */
  range: (first: string, last: string) => string;
}

const AXIS_TEXT_MAX = 12;

export function formatsFor(locale: string, unit: SeriesUnit): Formats {
  const number = numberFormat(locale, { maximumFractionDigits: 2 });
  const tick = numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const long = dateTimeFormat(
    locale,
    unit === 'day' ? { dateStyle: 'long', timeZone: 'UTC' } : { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' },
  );
  const short = unit === 'day' ? dateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }) : long;
  const label = (l: string) =>
    keptText(`${unit} long ${locale}`, l, () => {
      const date = labelDate(unit, l);
      return date ? long.format(date) : l;
    });
  return {
    number: (n) => number.format(n),
    tick: (n) => tick.format(n),
    label,
    axisLabel: (l) => {
      const date = labelDate(unit, l);
      if (date) return short.format(date);
      return l.length > AXIS_TEXT_MAX ? `${l.slice(0, AXIS_TEXT_MAX - 1)}…` : l;
    },
    range: (first, last) => {
      const [a, b] = [labelDate(unit, first), labelDate(unit, last)];
      if (a && b && unit === 'day') return a <= b ? long.formatRange(a, b) : long.formatRange(b, a);
      return first === last ? label(first) : `${label(first)} – ${label(last)}`;
    },
  };
}

/** A number range for a legend: "1–10", or one number when both ends are the same. */
export function numberRange(locale: string, from: number, to: number): string {
  // formatRange is in Node 20's Intl (ES2023), not in the ES2022 lib the project compiles against.
  const format = numberFormat(locale, { maximumFractionDigits: 0 }) as Intl.NumberFormat & {
    formatRange(from: number, to: number): string;
  };
  return from === to ? format.format(from) : format.formatRange(from, to);
}

const ID = /^[A-Za-z][\w-]*$/;

/** Ids name the SVG's title and description for aria-labelledby: unique in the page, plain. */
export function assertId(id: string): void {
  if (!ID.test(id)) throw new Error(`chart id must be a letter then letters, digits, - or _: ${JSON.stringify(id)}`);
}

/** The figure's caption with the summary under it; the SVG repeats both as its accessible name. */
export function figcaption(caption: string, summary: string): RawHtml {
  return html`<figcaption><span class="chart-caption">${caption}</span> <span class="chart-summary">${summary}</span></figcaption>`;
}

/** The opening of an accessible SVG: role img, named by its <title> and <desc>. */
export function svgOpen(
  id: string,
  className: string,
  width: number,
  height: number,
  caption: string,
  summary: string,
): RawHtml {
  return html`<svg xmlns="http://www.w3.org/2000/svg" class="${className}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc"><title id="${id}-title">${caption}</title><desc id="${id}-desc">${summary}</desc>`;
}

/** A data table with a caption and a header cell scoped to each column and row. */
export function dataTable(
  caption: string,
  columns: readonly [string, string],
  rows: readonly (readonly [RawHtml | string, string])[],
): RawHtml {
  return html`<table class="chart-table"><caption>${caption}</caption><thead><tr><th scope="col">${columns[0]}</th><th scope="col">${columns[1]}</th></tr></thead><tbody>${rows.map(
    ([head, value]) => html`<tr><th scope="row">${head}</th><td>${value}</td></tr>`,
  )}</tbody></table>`;
}

/** How a chart gives its numbers: a table behind a disclosure (one click away), or none when the page lists them itself. */
export type ChartTable = 'disclosure' | 'none';

/** The data table behind a "Show as table" disclosure, so the page prints each number once. */
export function tableDisclosure(mode: ChartTable | undefined, summary: string, table: RawHtml): RawHtml | null {
  if (mode === 'none') return null;
  return html`<details class="chart-details"><summary>${summary}</summary>${table}</details>`;
}
