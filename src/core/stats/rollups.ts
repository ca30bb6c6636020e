import type { Click } from '../clicks/click.ts';
import { UNKNOWN_VALUE, VALUE_MAX_LENGTH, type Dimension } from './dimensions.ts';

/** Clicks to add to one rollup row: link, local day, dimension, value. */
export interface RollupIncrement {
  linkId: number;
  day: string;
  dimension: Dimension;
  value: string;
  count: number;
}

/** A visitor seen on a link on a local day; the first one of each counts as unique. */
export interface VisitorMark {
  linkId: number;
  day: string;
  visitor: string;
}

export function hourValue(hour: number): string {
  return hour < 10 ? `0${hour}` : String(hour);
}

function valueOf(raw: string | null): string {
  if (raw === null) return UNKNOWN_VALUE;
  return raw.length > VALUE_MAX_LENGTH ? raw.slice(0, VALUE_MAX_LENGTH) : raw;
}

/** Adds what one click contributes to the rollups into `byKey` (see rollupsOf). */
export function addClickTo(byKey: Map<string, RollupIncrement>, click: Click): void {
  const add = (dimension: Dimension, value: string) => {
    const key = `${click.linkId}\u0000${dimension}\u0000${click.day}\u0000${value}`;
    const found = byKey.get(key);
    if (found) found.count++;
    else byKey.set(key, { linkId: click.linkId, day: click.day, dimension, value, count: 1 });
  };
  if (click.isBot) {
    add('bot', UNKNOWN_VALUE);
    return;
  }
  add('total', UNKNOWN_VALUE);
  add('hour', hourValue(click.hour));
  add('country', valueOf(click.country));
  add('city', valueOf(click.city));
  add('browser', valueOf(click.browser));
  add('platform', valueOf(click.platform));
  add('device', valueOf(click.device));
  add('language', valueOf(click.language));
  add('referrer', valueOf(click.referrerHost));
}

/** Adds a human click's visitor mark into `seen`, once per link, day and visitor. */
export function addMarkTo(seen: Map<string, VisitorMark>, click: Click): void {
  if (click.isBot || click.visitor === null) return;
  const key = `${click.linkId}\u0000${click.day}\u0000${click.visitor}`;
  if (!seen.has(key)) seen.set(key, { linkId: click.linkId, day: click.day, visitor: click.visitor });
}

/**
 * What a batch of clicks adds to the rollups, one increment per row touched, in key order
 * (link, dimension, day, value) so that concurrent writers lock rows in the same order.
 * Bots add to `bot` only; `unique` comes from the visitor marks the store finds new.
 */
export function rollupsOf(clicks: readonly Click[]): RollupIncrement[] {
  const byKey = new Map<string, RollupIncrement>();
  for (const click of clicks) addClickTo(byKey, click);
  return sortIncrements([...byKey.values()]);
}

/** The distinct visitor marks of a batch's human clicks. */
export function visitorMarksOf(clicks: readonly Click[]): VisitorMark[] {
  const seen = new Map<string, VisitorMark>();
  for (const c of clicks) addMarkTo(seen, c);
  return [...seen.values()];
}

/** One `unique` increment per (link, day) for the marks that were new. */
export function uniqueIncrements(fresh: ReadonlyArray<{ linkId: number; day: string }>): RollupIncrement[] {
  const byKey = new Map<string, RollupIncrement>();
  for (const { linkId, day } of fresh) {
    const key = `${linkId}\u0000${day}`;
    const found = byKey.get(key);
    if (found) found.count++;
    else byKey.set(key, { linkId, day, dimension: 'unique', value: UNKNOWN_VALUE, count: 1 });
  }
  return [...byKey.values()];
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function sortIncrements(rows: RollupIncrement[]): RollupIncrement[] {
  return rows.sort((a, b) => a.linkId - b.linkId || compare(a.dimension, b.dimension) || compare(a.day, b.day) || compare(a.value, b.value));
}
