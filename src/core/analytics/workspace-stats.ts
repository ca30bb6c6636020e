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
/** The names folded from each link's clicks by something of the link. */
export type LinkFold = Exclude<WorkspaceStatsName, 'clicks' | 'links' | 'qr'>;

export function isWorkspaceStatsName(name: string): name is WorkspaceStatsName {
  return (WORKSPACE_STATS_NAMES as readonly string[]).includes(name);
}

/** One link's clicks over a range, and how many of them came through a QR code. */
export interface LinkRangeCount {
  linkId: number;
  clicks: number;
  qr: number;
}

/** What the breakdowns read of a link, as it is now. */
export interface LinkFacts {
  id: number;
  alias: string;
  url: string;
  title: string | null;
  space: string | null;
  tags: readonly string[];
}

/** A `links` entry carries the link it counts. */
export interface WorkspaceValueCount extends ValueCount {
  linkId?: number;
}

/** The UTM value of a destination URL, null without one (or an address that is not a URL). */
export function utmOf(url: string, field: 'utm_source' | 'utm_medium' | 'utm_campaign'): string | null {
  const value = parsed(url)?.searchParams.get(field);
  return value ? value : null;
}

/** The destination's host, lower-case, without a leading `www.`; null for an address that is not a URL. */
export function hostOf(url: string): string | null {
  const host = parsed(url)?.hostname.toLowerCase();
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

/** The values a link's clicks count under, for one breakdown: every tag (so two tags count twice), else one value or null. */
function valuesOf(link: LinkFacts, name: LinkFold): ReadonlyArray<string | null> {
  switch (name) {
    case 'tags':
      return link.tags.length > 0 ? link.tags : [null];
    case 'spaces':
      return [link.space];
    case 'destinations':
      return [hostOf(link.url)];
    default:
      return [utmOf(link.url, name)];
  }
}

/**
 * Each link's clicks added under each of its values: links ≤ 100 000, so this is one pass over
 * the links clicked in the range. A link no longer there (deleted) is left out: its clicks stay
 * in the workspace's days, but it has no tag, space or destination any more.
 */
export function foldLinks(
  counts: readonly LinkRangeCount[],
  facts: ReadonlyMap<number, LinkFacts>,
  name: LinkFold,
): ValueCount[] {
  const sums = new Map<string | null, number>();
  for (const { linkId, clicks } of counts) {
    const link = facts.get(linkId);
    if (link === undefined || clicks === 0) continue;
    for (const value of valuesOf(link, name)) sums.set(value, (sums.get(value) ?? 0) + clicks);
  }
  return [...sums].map(([value, count]) => ({ value, count }));
}

/** The `links` list: each link clicked, by its alias, with its id. */
export function linkEntries(
  counts: readonly LinkRangeCount[],
  facts: ReadonlyMap<number, LinkFacts>,
): WorkspaceValueCount[] {
  const entries: WorkspaceValueCount[] = [];
  for (const { linkId, clicks } of counts) {
    const link = facts.get(linkId);
    if (link !== undefined && clicks > 0) entries.push({ value: link.alias, count: clicks, linkId });
  }
  return entries;
}

/** QR scans against every other visit; a code printed before QR codes carried `qr=1` counts as `link`. */
export function qrEntries(counts: readonly LinkRangeCount[]): ValueCount[] {
  let qr = 0;
  let all = 0;
  for (const c of counts) {
    qr += c.qr;
    all += c.clicks;
  }
  return [
    { value: 'qr', count: qr },
    { value: 'link', count: Math.max(0, all - qr) },
  ];
}
