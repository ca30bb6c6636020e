// Clicks by country as a server-rendered SVG world map: each country shaded by the count range
// (bucket) it falls in, a numeric legend, and the data as a table. Pure: data in, markup out;
// the outlines are projected once (world-shapes.ts), every value goes through the `html` tag.
//
// Class names (styled in ../charts.css; no style attributes, the CSP forbids inline styles):
//   figure   .chart .chart-world-map       figcaption .chart-caption, .chart-summary
//   svg      .chart-svg .map-svg           country .map-country, plus .map-bucket-1 … .map-bucket-5
//                                          when it has clicks (5 the busiest), .map-unnamed for
//                                          shapes with no ISO code
//   legend   .map-legend (ul), .map-legend-item, .map-swatch (+ .map-bucket-N or .map-nodata)
//   table    .chart-table (behind details .chart-details, or none), .map-offmap (a row's note: the code has no shape on the map)
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { bucketClass, bucketOf, bucketsFor } from './buckets.ts';
import { assertId, dataTable, figcaption, numberRange, svgOpen, tableDisclosure, type ChartTable } from './format.ts';
import { worldShapes } from './world-shapes.ts';
import { displayNames, keptText, numberFormat } from '../../i18n/intl-formats.ts';

export interface CountryCount {
  /** ISO 3166-1 alpha-2 ('US'); '' for clicks whose country is not known. */
  code: string;
  count: number;
}

/** What the summary sentence is made of, formatted, for a catalogue to word. */
export interface MapSummary {
  total: number;
  totalText: string;
  /** Countries with at least one click ('' and codes Intl names no region for not counted). */
  countries: number;
  countriesText: string;
  /** The country with the most clicks (the first of equals), or null when there are none. */
  top: { name: string; count: number; countText: string } | null;
  /** Clicks whose countries a public page shows together as "Other" (privacy folding); 0: none. */
  folded: number;
  foldedText: string;
}

export interface WorldMapLabels {
  /** The table's columns. */
  countryColumn: string;
  valueColumn: string;
  /** The name shown for '' (country not known). */
  unknownCountry: string;
  /** The note beside a table row whose country has no shape on the map. */
  notOnMap: string;
  /** The legend's entry for countries with no clicks. */
  noClicks: string;
  /** A country's tooltip: "Germany: 210 clicks". */
  countryTitle: (name: string, count: number, countText: string) => string;
  /** The sentence under the caption and in the SVG's description. */
  summary: (s: MapSummary) => string;
  /** The disclosure that opens the data table. */
  showTable: string;
}

const ENGLISH_MAP_LABELS: WorldMapLabels = {
  countryColumn: 'Country',
  valueColumn: 'Clicks',
  unknownCountry: 'Unknown',
  notOnMap: 'not on the map',
  noClicks: 'No clicks',
  showTable: 'Show as table',
  countryTitle: (name, count, countText) =>
    count === 0 ? `${name}: no clicks` : `${name}: ${countText} ${count === 1 ? 'click' : 'clicks'}`,
  summary: (s) => {
    const clicks = (n: number, text: string) => `${text} ${n === 1 ? 'click' : 'clicks'}`;
    const others = `from countries shown together as “Other” to protect visitors`;
    if (!s.top)
      return s.folded > 0 ? `${clicks(s.folded, s.foldedText)}, all ${others}.` : 'No clicks from any country.';
    const from = `${clicks(s.total, s.totalText)} from ${s.countriesText} ${s.countries === 1 ? 'country' : 'countries'}`;
    const named = s.countries === 1 ? from : `${from}; most from ${s.top.name} with ${s.top.countText}`;
    return s.folded > 0 ? `${named}; ${clicks(s.folded, s.foldedText)} ${others}.` : `${named}.`;
  },
};

export interface WorldMapInput {
  /** Unique in the page: names the SVG's title and description (`${id}-title`, `${id}-desc`). */
  id: string;
  caption: string;
  /** Table rows in this order (the statistics list them busiest first). */
  counts: readonly CountryCount[];
  locale: string;
  labels?: Partial<WorldMapLabels>;
  /** 'disclosure' (default): the data table behind "Show as table"; 'none': the page lists the numbers itself. */
  table?: ChartTable;
  /** Clicks counted under "Other" (on no country of the map), so the summary does not say there were none. */
  folded?: number;
}

const ALPHA_2 = /^[A-Z]{2}$/;

/** Country names in the page's language; a code Intl does not take is shown as given. */
function namer(locale: string, unknown: string): (code: string) => string {
  const names = displayNames(locale, { type: 'region', fallback: 'code' });
  return (given) => {
    const code = normalized(given);
    if (code === '') return unknown;
    if (!ALPHA_2.test(code)) return given;
    return keptText(`region ${locale}`, code, () => names.of(code) ?? code);
  };
}

const normalized = (code: string) => code.trim().toUpperCase();

const positive = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);

/** A figure with the map, its caption and summary, a numeric legend and the data as a table. */
export function renderWorldMap(input: WorldMapInput): RawHtml {
  assertId(input.id);
  const labels = { ...ENGLISH_MAP_LABELS, ...input.labels };
  const number = numberFormat(input.locale, { maximumFractionDigits: 0 });
  const nameOf = namer(input.locale, labels.unknownCountry);
  const shapes = worldShapes();

  // Counts by code (upper case, repeated codes summed) for the shading and the summary.
  const byCode = new Map<string, number>();
  for (const c of input.counts) {
    const code = normalized(c.code);
    byCode.set(code, (byCode.get(code) ?? 0) + positive(c.count));
  }
  let total = 0;
  let top: [string, number] | null = null;
  let countries = 0;
  for (const [code, count] of byCode) {
    total += count;
    // 'XX' and the like are listed in the table but are no country Intl can name.
    if (count > 0 && ALPHA_2.test(code) && nameOf(code) !== code) {
      countries++;
      if (!top || count > top[1]) top = [code, count];
    }
  }
  const summary = labels.summary({
    total,
    totalText: number.format(total),
    countries,
    countriesText: number.format(countries),
    top: top && { name: nameOf(top[0]), count: top[1], countText: number.format(top[1]) },
    folded: positive(input.folded ?? 0),
    foldedText: number.format(positive(input.folded ?? 0)),
  });

  const onMap = [...byCode].filter(([code]) => shapes.codes.has(code)).map(([, count]) => count);
  const buckets = bucketsFor(Math.max(0, ...onMap));
  const paths = shapes.countries.map((shape) => {
    if (!shape.code) return html`<path class="map-country map-unnamed"${shape.d}/>`;
    const count = byCode.get(shape.code) ?? 0;
    const bucket = bucketOf(buckets, count);
    const cls = bucket ? `map-country ${bucketClass(bucket, buckets.length)}` : 'map-country';
    return html`<path class="${cls}"${shape.d}><title>${labels.countryTitle(nameOf(shape.code), count, number.format(count))}</title></path>`;
  });

  const legend = html`<ul class="map-legend"><li class="map-legend-item"><span class="map-swatch map-nodata" aria-hidden="true"></span>${labels.noClicks}</li>${buckets.map(
    (b) =>
      html`<li class="map-legend-item"><span class="map-swatch ${bucketClass(b, buckets.length)}" aria-hidden="true"></span>${numberRange(input.locale, b.from, b.to)}</li>`,
  )}</ul>`;

  const rows = input.counts.map((c) => {
    const code = normalized(c.code);
    const note =
      code !== '' && !shapes.codes.has(code) ? html` <span class="map-offmap">(${labels.notOnMap})</span>` : null;
    return [html`${nameOf(c.code)}${note}`, number.format(c.count)] as const;
  });

  return html`<figure class="chart chart-world-map">${figcaption(input.caption, summary)}${svgOpen(input.id, 'chart-svg map-svg', shapes.width, shapes.height, input.caption, summary)}${paths}</svg>${legend}${tableDisclosure(input.table, labels.showTable, dataTable(input.caption, [labels.countryColumn, labels.valueColumn], rows))}</figure>`;
}
