// The world map's country outlines as SVG path data, projected once (at the first map rendered)
// and kept: a render only joins cached strings. Whole units (digits 0): a unit is about 40 km
// at this width, and the markup is a quarter smaller than with one decimal.
//
// Natural Earth 1:110m (world-atlas) keys countries by ISO 3166-1 numeric code; clicks carry the
// alpha-2 code, looked up in i18n-iso-countries' table. Its package entry registers 80 languages'
// names; the charts name countries with Intl.DisplayNames, so only the table (index.js) is loaded.
// Shapes with no ISO code in Natural Earth (N. Cyprus, Somaliland, Kosovo) are drawn, unshaded.
// Antarctica is left out: a fifth of the map's height for a country no visitor comes from.
import { createRequire } from 'node:module';
import { geoEqualEarth, geoPath } from 'd3-geo';
import type { GeoJsonProperties } from 'geojson';
import { numericToAlpha2 } from 'i18n-iso-countries/index.js';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { html, type RawHtml } from '../../../shared/html/html.ts';

export interface CountryShape {
  /** ISO 3166-1 alpha-2, or null for a shape Natural Earth gives no ISO code. */
  code: string | null;
  /** The `d` attribute, escaped once: ` d="M…"`. */
  d: RawHtml;
}

export interface WorldShapes {
  width: number;
  height: number;
  countries: readonly CountryShape[];
  /** The alpha-2 codes that have a shape. */
  codes: ReadonlySet<string>;
}

const WIDTH = 960;
const ANTARCTICA = '010';

let cached: WorldShapes | undefined;

export function worldShapes(): WorldShapes {
  return (cached ??= project());
}

function project(): WorldShapes {
  const require = createRequire(import.meta.url);
  const topology = require('world-atlas/countries-110m.json') as Topology<{
    countries: GeometryCollection<GeoJsonProperties>;
  }>;
  const all = feature(topology, topology.objects.countries).features;
  const land = { type: 'FeatureCollection' as const, features: all.filter((f) => f.id !== ANTARCTICA) };
  const projection = geoEqualEarth().fitWidth(WIDTH, land);
  const path = geoPath(projection).digits(0);
  const [[, top], [, bottom]] = path.bounds(land);
  const countries = land.features.map((f) => ({ code: codeOf(f.id), d: html` d="${relativePath(path(f) ?? '')}"` }));
  return {
    width: WIDTH,
    height: Math.ceil(bottom - Math.min(0, top)),
    countries,
    codes: new Set(countries.flatMap((c) => (c.code ? [c.code] : []))),
  };
}

/**
 * d3's path data (absolute `M`/`L`/`Z` at whole units) as relative steps, a point that does not
 * move left out: the map is most of a statistics page's bytes, and a step of a few units is
 * written in a third of an absolute point's characters. Data with any other command is kept.
 */
export function relativePath(d: string): string {
  if (!/^[MLZ0-9,.\- ]*$/.test(d)) return d;
  let out = '';
  let x = 0;
  let y = 0;
  let inRun = false;
  for (const [, command, args] of d.matchAll(/([MLZ])([^MLZ]*)/g)) {
    if (command === 'Z') {
      out += 'z';
      inRun = false;
      continue;
    }
    const [nx, ny] = args!.split(',').map(Number) as [number, number];
    if (command === 'M') {
      out += `M${nx} ${ny}`;
      inRun = false;
    } else if (nx !== x || ny !== y) {
      const dx = nx - x;
      const dy = ny - y;
      out += `${inRun ? (dx < 0 ? '' : ' ') : 'l'}${dx}${dy < 0 ? '' : ' '}${dy}`;
      inRun = true;
    }
    x = nx;
    y = ny;
  }
  return out;
}

function codeOf(id: string | number | undefined): string | null {
  return id === undefined ? null : (numericToAlpha2(id) ?? null);
}
