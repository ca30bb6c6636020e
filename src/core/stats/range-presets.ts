import { epochMsToZonedDate } from '../expiration/ends-at.ts';
import { addDays, dayNumber, DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, type DayRange } from './range.ts';

/** The ranges a statistics page offers in one click; `custom` is any from/to. */
export const RANGE_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'thisMonth', 'lastMonth', 'all'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export function isRangePreset(value: unknown): value is RangePreset {
  return typeof value === 'string' && (RANGE_PRESETS as readonly string[]).includes(value);
}

/**
 * A preset's days in a time zone (the link owner's) at `now`. `all` runs from the day the link
 * was made to today, at most MAX_RANGE_DAYS long.
 */
export function presetRange(preset: RangePreset, now: number, timeZone: string, createdAt: number): DayRange {
  const today = epochMsToZonedDate(now, timeZone);
  const monthStart = `${today.slice(0, 8)}01`;
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const day = addDays(today, -1);
      return { from: day, to: day };
    }
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'last30':
      return { from: addDays(today, -(DEFAULT_RANGE_DAYS - 1)), to: today };
    case 'thisMonth':
      return { from: monthStart, to: today };
    case 'lastMonth': {
      const lastDay = addDays(monthStart, -1);
      return { from: `${lastDay.slice(0, 8)}01`, to: lastDay };
    }
    case 'all': {
      let from = epochMsToZonedDate(createdAt, timeZone);
      if (dayNumber(from) > dayNumber(today)) from = today;
      if (dayNumber(today) - dayNumber(from) + 1 > MAX_RANGE_DAYS) from = addDays(today, -(MAX_RANGE_DAYS - 1));
      return { from, to: today };
    }
  }
}

/** The period of the same length just before a range: what growth is measured against. */
export function previousRange(range: DayRange): DayRange {
  const length = dayNumber(range.to) - dayNumber(range.from) + 1;
  return { from: addDays(range.from, -length), to: addDays(range.from, -1) };
}

/** The preset whose days a range is (the first that matches), or null: a custom range. */
export function presetOf(range: DayRange, now: number, timeZone: string, createdAt: number): RangePreset | null {
  for (const preset of RANGE_PRESETS) {
    const r = presetRange(preset, now, timeZone, createdAt);
    if (r.from === range.from && r.to === range.to) return preset;
  }
  return null;
}
