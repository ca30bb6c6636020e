/**
 * What statistics count, and under which name the API asks for it (api.md §8).
 *
 * Every human click adds one to each of `total`, `hour` and the seven breakdowns of its local
 * day; `unique` counts first visits of a visitor that day; `bot` counts bots, which appear
 * nowhere else, so the sum of `total` over all days is the link's `clicks`.
 */
export const STATS_NAMES = [
  'clicks',
  'clicks_hours',
  'country',
  'cities',
  'browser',
  'platform',
  'device',
  'language',
  'referrer',
] as const;
export type StatsName = (typeof STATS_NAMES)[number];

export type Breakdown = 'country' | 'city' | 'browser' | 'platform' | 'device' | 'language' | 'referrer';

/**
 * decision: human clicks per deciding rule and split variant (decision-value.ts, docs/design/rules.md);
 * qr: human clicks that came through a QR code (value '').
 */
export type Dimension = 'total' | 'hour' | 'unique' | 'bot' | 'decision' | 'qr' | Breakdown;

/** The rollup dimension each API name reads. */
export const DIMENSION_OF: Readonly<Record<StatsName, Exclude<Dimension, 'decision' | 'qr'>>> = {
  clicks: 'total',
  clicks_hours: 'hour',
  country: 'country',
  cities: 'city',
  browser: 'browser',
  platform: 'platform',
  device: 'device',
  language: 'language',
  referrer: 'referrer',
};

/** Rollup rows keep "not known" (no Referer, no city…) as this value; the API shows null. */
export const UNKNOWN_VALUE = '';

/** Longest value kept; longer ones (a very long host name) are cut. */
export const VALUE_MAX_LENGTH = 255;

export function isStatsName(name: string): name is StatsName {
  return (STATS_NAMES as readonly string[]).includes(name);
}
