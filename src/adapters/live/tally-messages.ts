import type { ClickTally } from '../../core/live/click-feed.ts';

/** What crosses Redis: the sending instance (to drop its own echo) and its tallies. */
interface TallyMessage {
  from: string;
  tallies: ClickTally[];
}

export function encodeTallies(from: string, tallies: readonly ClickTally[]): string {
  return JSON.stringify({ from, tallies });
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

function tallyOf(value: unknown): ClickTally | null {
  if (typeof value !== 'object' || value === null) return null;
  const { accountId, clicks, links } = value as Record<string, unknown>;
  if (!isCount(accountId) || !isCount(clicks) || typeof links !== 'object' || links === null) return null;
  const counted: Record<number, number> = {};
  for (const [id, count] of Object.entries(links)) {
    if (!/^[1-9]\d{0,15}$/.test(id) || !isCount(count)) return null;
    counted[Number(id)] = count;
  }
  return { accountId, clicks, links: counted };
}

/** A message of another instance (of this version or a later one), or null when it is not one. */
export function decodeTallies(message: string): TallyMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { from, tallies } = parsed as Record<string, unknown>;
  if (typeof from !== 'string' || !Array.isArray(tallies)) return null;
  const read = tallies.map(tallyOf);
  return read.every((t) => t !== null) ? { from, tallies: read } : null;
}
