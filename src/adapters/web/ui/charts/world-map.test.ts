import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoInjection, HOSTILE } from '../../../shared/html/test-support.ts';
import { all, first, parse, tableRows, text } from './chart-test-support.ts';
import { renderWorldMap, type WorldMapInput } from './world-map.ts';

const input = (over: Partial<WorldMapInput> = {}): WorldMapInput => ({
  id: 'countries',
  caption: 'Clicks by country',
  counts: [
    { code: 'US', count: 210 },
    { code: 'DE', count: 64 },
    { code: 'GB', count: 12 },
    { code: 'FR', count: 7 },
    { code: 'JP', count: 2 },
    { code: 'BR', count: 1 },
  ],
  locale: 'en',
  ...over,
});

/** Each country path's tooltip → its class. */
function shading(markup: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of all(parse(markup), 'path')) {
    const title = all(path, 'title')[0];
    if (title) out.set(text(title), path.attribs.class ?? '');
  }
  return out;
}

test('alpha-2 codes find their countries on the map, named in the locale and shaded by bucket', () => {
  const map = shading(renderWorldMap(input()).toString());
  assert.equal(map.get('United States: 210 clicks'), 'map-country map-bucket-5');
  assert.equal(map.get('Germany: 64 clicks'), 'map-country map-bucket-4');
  assert.equal(map.get('United Kingdom: 12 clicks'), 'map-country map-bucket-3');
  assert.equal(map.get('France: 7 clicks'), 'map-country map-bucket-2');
  assert.equal(map.get('Japan: 2 clicks'), 'map-country map-bucket-1');
  assert.equal(map.get('Brazil: 1 click'), 'map-country map-bucket-1');
  assert.equal(map.get('Italy: no clicks'), 'map-country');
  assert.ok(map.size > 150);

  const german = shading(renderWorldMap(input({ locale: 'de' })).toString());
  assert.ok([...german.keys()].some((t) => t.startsWith('Vereinigte Staaten: 210')));
});

test('the legend gives the bucket ranges as numbers', () => {
  const out = renderWorldMap(input({ counts: [{ code: 'US', count: 1210 }] })).toString();
  const items = all(parse(out), 'li').map((li) => text(li));
  assert.deepEqual(items, ['No clicks', '1–5', '6–20', '21–100', '101–500', '501–1,210']);
  const swatches = all(parse(out), 'span').filter((s) => s.attribs.class?.startsWith('map-swatch'));
  assert.deepEqual(
    swatches.map((s) => s.attribs.class),
    [
      'map-swatch map-nodata',
      'map-swatch map-bucket-1',
      'map-swatch map-bucket-2',
      'map-swatch map-bucket-3',
      'map-swatch map-bucket-4',
      'map-swatch map-bucket-5',
    ],
  );
});

test('the table lists every entry as given; unknown codes are in it but not on the map', () => {
  const counts = [
    { code: 'US', count: 1234 },
    { code: '', count: 40 },
    { code: 'SG', count: 9 },
    { code: 'XX', count: 3 },
    { code: 'de', count: 2 },
  ];
  const out = renderWorldMap(input({ counts })).toString();
  assert.deepEqual(tableRows(out), [
    ['United States', '1,234'],
    ['Unknown', '40'],
    ['Singapore (not on the map)', '9'],
    ['XX (not on the map)', '3'],
    ['Germany', '2'],
  ]);
  const map = shading(out);
  assert.equal(map.get('Germany: 2 clicks'), 'map-country map-bucket-1');
  assert.ok(![...map.keys()].some((t) => t.startsWith('XX') || t.startsWith('Singapore')));
  assert.equal(first(out, 'desc'), '1,288 clicks from 3 countries; most from United States with 1,234.');
});

test('the SVG is an image named by its title and description; no style attribute', () => {
  const out = renderWorldMap(input()).toString();
  const [svg] = all(parse(out), 'svg');
  assert.equal(svg?.attribs.role, 'img');
  assert.equal(svg?.attribs['aria-labelledby'], 'countries-title countries-desc');
  assert.equal(first(out, 'desc'), '296 clicks from 6 countries; most from United States with 210.');
  assert.equal(first(out, 'caption'), 'Clicks by country');
  assert.doesNotMatch(out, /\sstyle=/);
});

test('hostile codes and captions come out escaped', () => {
  const out = renderWorldMap(input({ caption: HOSTILE.title, counts: [{ code: HOSTILE.title, count: 5 }] })).toString();
  assertNoInjection(out);
  assert.deepEqual(tableRows(out), [[`${HOSTILE.title} (not on the map)`, '5']]);
  assert.equal(first(out, 'caption'), HOSTILE.title);
});

test('no data: nothing shaded, a legend of "No clicks" alone, an empty table', () => {
  const out = renderWorldMap(input({ counts: [] })).toString();
  assert.ok([...shading(out).values()].every((c) => c === 'map-country'));
  assert.deepEqual(
    all(parse(out), 'li').map((li) => text(li)),
    ['No clicks'],
  );
  assert.deepEqual(tableRows(out), []);
  assert.equal(first(out, 'desc'), 'No clicks from any country.');
});

test('every click folded into "Other": the summary says so instead of "no clicks"', () => {
  const all = renderWorldMap(input({ counts: [], folded: 5 })).toString();
  assert.equal(first(all, 'desc'), '5 clicks, all from countries shown together as “Other” to protect visitors.');
  const some = renderWorldMap(input({ counts: [{ code: 'US', count: 7 }], folded: 2 })).toString();
  assert.equal(
    first(some, 'desc'),
    '7 clicks from 1 country; 2 clicks from countries shown together as “Other” to protect visitors.',
  );
});
