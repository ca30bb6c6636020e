import type { ValueCount } from '../stats/stats-store.ts';

/**
 * What a workspace's statistics count, under the name the API asks for (docs/api.md, Workspace
 * statistics): clicks per day, and clicks per link, tag, space, UTM value, destination host and
 * way in (a QR code or anything else).
 */
export const WORKSPACE_STATS_NAMES = [
  'clicks',
  'links',
  'tags',
  'spaces',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'destinations',
  'qr',
] as const;
export type WorkspaceStatsName = (typeof WORKSPACE_STATS_NAMES)[number];
/**
 * The names counted by value in the workspace's value days (migration 0054): each click under
 * the values of its link when it was counted.
 */
export type ValueName = Exclude<WorkspaceStatsName, 'clicks' | 'links'>;

export function isWorkspaceStatsName(name: string): name is WorkspaceStatsName {
  return (WORKSPACE_STATS_NAMES as readonly string[]).includes(name);
}

/** A `links` entry carries the link it counts. */
export interface WorkspaceValueCount extends ValueCount {
  linkId?: number;
}

/** The UTM value of a destination URL, null without one (or an address that is not a URL). */
export function utmOf(url: string, field: UtmField): string | null {
  return utmIn(parsed(url), field);
}

type UtmField = 'utm_source' | 'utm_medium' | 'utm_campaign';

function utmIn(url: URL | null, field: UtmField): string | null {
  const value = url?.searchParams.get(field);
  return value ? value : null;
}

/** The destination's host, lower-case, without a leading `www.`; null for an address that is not a URL. */
export function hostOf(url: string): string | null {
  return hostIn(parsed(url));
}

function hostIn(url: URL | null): string | null {
  const host = url?.hostname.toLowerCase();
  if (!host) return null;
  return host.startsWith('www.') ? host.slice(4) : host;
}

function parsed(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

type UrlFold = 'destinations' | UtmField;

/**
 * What the URL breakdowns count a link's clicks under, parsed once when its URL is written
 * (the link store keeps them in `links`, migration 0054, for the rollups' SQL to read).
 */
export function urlValuesOf(url: string): Record<UrlFold, string | null> {
  const parsedUrl = parsed(url);
  return {
    destinations: hostIn(parsedUrl),
    utm_source: utmIn(parsedUrl, 'utm_source'),
    utm_medium: utmIn(parsedUrl, 'utm_medium'),
    utm_campaign: utmIn(parsedUrl, 'utm_campaign'),
  };
}

/**
 * QR scans against every other visit, from the `qr` value days: `qr` the scans, null every
 * click; a code printed before QR codes carried `qr=1` counts as `link`.
 */
export function qrEntries(values: readonly ValueCount[]): ValueCount[] {
  let qr = 0;
  let all = 0;
  for (const v of values) {
    if (v.value === 'qr') qr += v.count;
    else if (v.value === null) all += v.count;
  }
  return [
    { value: 'qr', count: qr },
    { value: 'link', count: Math.max(0, all - qr) },
  ];
}

/** Most clicks first, ties by value: `arrange(…, 'max')`'s order. */
function before(a: ValueCount, b: ValueCount): boolean {
  if (a.count !== b.count) return a.count > b.count;
  return (a.value ?? '') < (b.value ?? '');
}

/**
 * The first `n` of `items` in `arrange(…, 'max')`'s order, without sorting them all: a page's ten
 * of a hundred thousand links in one pass.
 */
export function topOf<T extends ValueCount>(items: readonly T[], n: number): T[] {
  const kept: T[] = [];
  if (n <= 0) return kept;
  for (const item of items) {
    if (kept.length === n && !before(item, kept[n - 1]!)) continue;
    let at = kept.length === n ? n - 1 : kept.length;
    while (at > 0 && before(item, kept[at - 1]!)) at--;
    kept.splice(at, 0, item);
    if (kept.length > n) kept.pop();
  }
  return kept;
}
