import { epochMsToZonedParts } from '../expiration/ends-at.ts';

/** Where a click falls in its account's calendar: the statistics buckets. */
export interface LocalSlot {
  /** YYYY-MM-DD in the account's time zone. */
  day: string;
  /** 0–23 in the account's time zone. */
  hour: number;
}

export function localSlot(at: number, timeZone: string): LocalSlot {
  const { date, time } = epochMsToZonedParts(at, timeZone);
  return { day: date, hour: Number(time.slice(0, 2)) };
}

const QUARTER_MS = 15 * 60_000;
const CACHE_LIMIT = 1000;

/**
 * localSlot for the hot path. Every time zone in use today has an offset that is a multiple of
 * 15 minutes and changes it on a quarter hour, so a whole UTC quarter hour falls in one local
 * hour: each zone remembers its current quarter. A quarter whose first and last millisecond
 * disagree (a historical zone, should one be used) is not remembered, only computed.
 */
export class LocalSlots {
  private readonly last = new Map<string, { quarter: number; slot: LocalSlot }>();

  of(at: number, timeZone: string): LocalSlot {
    const quarter = Math.floor(at / QUARTER_MS);
    const hit = this.last.get(timeZone);
    if (hit && hit.quarter === quarter) return hit.slot;
    const first = localSlot(quarter * QUARTER_MS, timeZone);
    const end = localSlot((quarter + 1) * QUARTER_MS - 1, timeZone);
    if (first.day !== end.day || first.hour !== end.hour) return localSlot(at, timeZone);
    if (this.last.size >= CACHE_LIMIT && !hit) this.last.clear();
    this.last.set(timeZone, { quarter, slot: first });
    return first;
  }
}
