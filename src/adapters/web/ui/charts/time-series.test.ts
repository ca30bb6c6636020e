import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoInjection, HOSTILE } from '../../../shared/html/test-support.ts';
import { all, first, parse, tableRows } from './chart-test-support.ts';
import { renderTimeSeries, type SeriesPoint, type TimeSeriesInput } from './time-series.ts';

const november = (values: number[]): SeriesPoint[] =>
  values.map((value, i) => ({ label: `2026-11-${String(i + 1).padStart(2, '0')}`, value }));

/** ICU's date ranges differ between versions (thin spaces around the dash or none): asked of Intl. */
const novemberRange = (from: number, to: number) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).formatRange(
    new Date(Date.UTC(2026, 10, from)),
    new Date(Date.UTC(2026, 10, to)),
  );

/** Spaces as ICU writes them (no-break, narrow) made plain. */
const plain = (s: string | undefined) => s?.replace(/\s/g, ' ');

const input = (over: Partial<TimeSeriesInput> = {}): TimeSeriesInput => ({
  id: 'clicks',
  caption: 'Clicks per day',
  points: november([3, 0, 12]),
  unit: 'day',
  locale: 'en-GB',
  timeZone: 'Europe/Berlin',
  ...over,
});

test('the summary gives the total, the days and the busiest day, in the locale', () => {
  const values = Array.from({ length: 30 }, (_, i) => (i === 11 ? 210 : 36));
  const out = renderTimeSeries(input({ points: november(values) })).toString();
  const summary = `1,254 clicks, ${novemberRange(1, 30)}; busiest day 12 November 2026 with 210.`;
  assert.equal(first(out, 'desc'), summary);
  assert.match(first(out, 'figcaption'), /^Clicks per day 1,254 clicks/);
  assert.equal(first(out, 'title'), 'Clicks per day');

  const german = renderTimeSeries(input({ points: november(values), locale: 'de-DE' })).toString();
  assert.deepEqual(tableRows(german)[11], ['12. November 2026', '210']);
});

test('the SVG is an image named by its title and description, inside a figure with a caption', () => {
  const out = renderTimeSeries(input()).toString();
  const doc = parse(out);
  const [figure] = all(doc, 'figure');
  const [svg] = all(doc, 'svg');
  assert.ok(figure && svg);
  assert.equal(svg.attribs.role, 'img');
  assert.equal(svg.attribs['aria-labelledby'], 'clicks-title clicks-desc');
  assert.equal(all(doc, 'title')[0]?.attribs.id, 'clicks-title');
  assert.equal(all(doc, 'desc')[0]?.attribs.id, 'clicks-desc');
  assert.equal(all(figure, 'figcaption').length, 1);
  assert.equal(first(out, 'caption'), 'Clicks per day');
  assert.deepEqual(
    all(doc, 'th').map((th) => th.attribs.scope),
    ['col', 'col', 'row', 'row', 'row'],
  );
  assert.doesNotMatch(out, /\sstyle=/);
});

test('the table has one row per point, in order, with the values formatted', () => {
  const points = november([1234, 0, 5]);
  assert.deepEqual(tableRows(renderTimeSeries(input({ points })).toString()), [
    ['1 November 2026', '1,234'],
    ['2 November 2026', '0'],
    ['3 November 2026', '5'],
  ]);
});

test('bars: one per non-zero point, the tallest reaching the top of the scale', () => {
  const out = renderTimeSeries(input({ points: november([3, 0, 12]) })).toString();
  const bars = all(parse(out), 'rect').filter((r) => r.attribs.class === 'chart-bar');
  assert.equal(bars.length, 2);
  assert.ok(Number(bars[1]?.attribs.height) > Number(bars[0]?.attribs.height));
});

test('a line chart draws a line, an area and a dot per point', () => {
  const out = renderTimeSeries(input({ kind: 'line' })).toString();
  const doc = parse(out);
  assert.deepEqual(
    all(doc, 'path').map((p) => p.attribs.class),
    ['chart-area', 'chart-line'],
  );
  assert.equal(all(doc, 'circle').length, 3);
});

test('hostile labels and captions come out escaped, in the SVG and in the table', () => {
  const points = [{ label: HOSTILE.title, value: 4 }];
  for (const unit of ['day', 'hour', 'text'] as const) {
    const out = renderTimeSeries(input({ points, unit, caption: HOSTILE.quotes, kind: 'line' })).toString();
    assertNoInjection(out);
    assert.ok(out.includes('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.deepEqual(tableRows(out), [[HOSTILE.title, '4']]);
    assert.equal(first(out, 'caption'), HOSTILE.quotes);
  }
});

test('all-zero data: no bars, a scale from 0 to 1, and a summary that says so', () => {
  const out = renderTimeSeries(input({ points: november([0, 0, 0]) })).toString();
  assert.equal(all(parse(out), 'rect').length, 0);
  assert.equal(first(out, 'desc'), `No clicks, ${novemberRange(1, 3)}.`);
  assert.equal(tableRows(out).length, 3);
  assert.doesNotMatch(out, /NaN|Infinity/);
  const line = renderTimeSeries(input({ points: november([0, 0, 0]), kind: 'line' })).toString();
  assert.doesNotMatch(line, /NaN|Infinity/);
});

test('no points: an empty chart and table, "No data."', () => {
  for (const kind of ['bars', 'line'] as const) {
    const out = renderTimeSeries(input({ points: [], kind })).toString();
    assert.equal(first(out, 'desc'), 'No data.');
    assert.deepEqual(tableRows(out), []);
    assert.doesNotMatch(out, /NaN|Infinity/);
    assert.equal(all(parse(out), 'path').length, 0);
  }
});

test('a single point: one bar, or one dot on a line chart', () => {
  const points = november([7]);
  const bars = renderTimeSeries(input({ points })).toString();
  assert.equal(all(parse(bars), 'rect').length, 1);
  assert.equal(first(bars, 'desc'), '7 clicks on 1 November 2026.');
  const line = renderTimeSeries(input({ points, kind: 'line' })).toString();
  assert.equal(all(parse(line), 'circle').length, 1);
  assert.doesNotMatch(line, /NaN/);
});

test('hours: labelled in the locale, the zone named in the table header', () => {
  const points = Array.from({ length: 24 }, (_, h) => ({
    label: String(h).padStart(2, '0'),
    value: h === 14 ? 30 : 1,
  }));
  const out = renderTimeSeries(input({ points, unit: 'hour', caption: 'Clicks per hour' })).toString();
  assert.equal(first(out, 'desc'), '53 clicks by hour of day; busiest hour 14:00 with 30.');
  assert.equal(tableRows(out)[14]?.[0], '14:00');
  assert.ok(out.includes('<th scope="col">Hour (Europe/Berlin)</th>'));
  const us = renderTimeSeries(input({ points, unit: 'hour', locale: 'en-US' })).toString();
  assert.equal(plain(tableRows(us)[14]?.[0]), '2:00 PM');
});

test('labels from a catalogue replace the English words', () => {
  const out = renderTimeSeries(
    input({
      labels: { valueColumn: 'Klicks', labelColumn: () => 'Tag', summary: (s) => `${s.totalText} Klicks` },
      locale: 'de-DE',
      points: november([1000, 234]),
    }),
  ).toString();
  assert.equal(first(out, 'desc'), '1.234 Klicks');
  assert.ok(out.includes('<th scope="col">Tag</th><th scope="col">Klicks</th>'));
});

test('an id that is not a plain name is refused', () => {
  assert.throws(() => renderTimeSeries(input({ id: 'a" onload="x' })), /chart id/);
});

test('the table is behind a "Show as table" disclosure, or left out when the page lists the numbers', () => {
  const out = renderTimeSeries(input({ labels: { showTable: 'As a table' } })).toString();
  assert.match(out, /<details class="chart-details"><summary>As a table<\/summary><table class="chart-table">/);
  assert.ok(
    !renderTimeSeries(input({ table: 'none' }))
      .toString()
      .includes('<table'),
  );
});

test('every other x label can give way on a narrow chart; the y labels sit inside the plot', () => {
  const out = renderTimeSeries(input({ points: november(Array.from({ length: 30 }, () => 5)) })).toString();
  assert.match(out, /class="chart-tick-label chart-tick-odd"/);
  assert.match(out, /class="chart-tick-label chart-y-label" x="10"/);
});
