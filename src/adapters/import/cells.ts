import type { TargetListInput } from '../../core/targeting/targeting-rules.ts';

/** A cell as the create rules want it: empty is absent. */
export const text = (v: string | null | undefined): string | undefined =>
  v === null || v === undefined || v === '' ? undefined : v;

/** A bad cell: the row is reported with the column's name and read no further. */
export class CellError extends Error {}

export function int(column: string, v: string | null | undefined): number | undefined {
  const t = text(v);
  if (t === undefined) return undefined;
  if (!/^-?\d+$/.test(t.trim())) throw new CellError(`${column}: not a whole number.`);
  return Number(t);
}

/** An instant written as ISO-8601, or as MySQL's `YYYY-MM-DD HH:MM:SS` (read as UTC, as Laravel and YOURLS store it). */
export function instant(column: string, v: string | null | undefined): number | null {
  const t = text(v);
  if (t === undefined || t.startsWith('0000-00-00')) return null;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(t) ? `${t.replace(' ', 'T')}Z` : t;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new CellError(`${column}: not a date and time.`);
  return ms;
}

/** A targeting list held as JSON text (`[{"key": "US", "value": "https://…"}]`). */
export function targetList(column: string, v: string | null | undefined): TargetListInput {
  const t = text(v);
  if (t === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    throw new CellError(`${column}: not a JSON list.`);
  }
  if (parsed === null) return null;
  if (!Array.isArray(parsed)) throw new CellError(`${column}: not a JSON list.`);
  return parsed as TargetListInput;
}

/** A JSON array of names (the linkpix export's `pixels`). */
export function nameList(column: string, v: string | null | undefined): string[] | undefined {
  const t = text(v);
  if (t === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(t);
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // reported below
  }
  throw new CellError(`${column}: not a JSON list.`);
}

/**
 * A cell of tag names: a JSON array of names, or names split at commas, semicolons or bars (Bitly
 * and spreadsheets write `a, b`, Shlink's web client `a|b`). Empty: no tags.
 */
export function tagList(column: string, v: string | null | undefined): string[] | undefined {
  const t = text(v)?.trim();
  if (t === undefined || t === '') return undefined;
  if (t.startsWith('[')) return nameList(column, t);
  return t
    .split(/[,;|]/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** A header name reduced for matching: `Long URL`, `long_url` and `longUrl` are one. */
export const headerKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A row's cells by reduced header name. */
export function byHeaderKey(cells: Record<string, string | null>): Record<string, string | null> {
  return Object.fromEntries(Object.entries(cells).map(([k, v]) => [headerKey(k), v]));
}
