import type { ClickTraits } from '../clicks/click.ts';
import type { LinkStore } from '../links/link-store.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError } from '../shared/errors.ts';
import { zonedDateTimeToEpochMs } from '../expiration/ends-at.ts';
import { addDays, resolveRange } from './range.ts';

/** One click row as recorded (never an address: api.md §7 step 8). */
export interface RawClick extends ClickTraits {
  id: number;
  at: number;
}

/** Where a row stands in (at, id) order: the keyset a page of clicks continues from. */
export interface ClickPosition {
  at: number;
  id: number;
}

export interface RawClickStore {
  /** Up to `limit` of the link's click rows with from <= at < to, after `after`, in (at, id) order. */
  clicksAfter(
    linkId: number,
    from: number,
    to: number,
    after: ClickPosition | null,
    limit: number,
  ): Promise<RawClick[]>;
}

/** Rows read per round trip: an export may hold millions. */
const CLICK_CHUNK = 1000;

/** A link's raw clicks over a range of the owner's days, a chunk at a time (api.md §8). */
export class ClickExportService {
  constructor(private readonly deps: { links: Pick<LinkStore, 'findById'>; clicks: RawClickStore; clock: Clock }) {}

  /** Checks the range and the owner first, so that a refusal comes before any row. */
  async prepare(
    account: { id: number; timezone: string },
    linkId: number,
    input: { from?: string | undefined; to?: string | undefined },
  ) {
    const range = resolveRange(input, this.deps.clock.now(), account.timezone);
    if (!(await this.deps.links.findById(account.id, linkId))) throw new NotFoundError('link');
    const from = zonedDateTimeToEpochMs(range.from, '00:00', account.timezone);
    const to = zonedDateTimeToEpochMs(addDays(range.to, 1), '00:00', account.timezone);
    return { range, chunks: this.chunks(linkId, from, to) };
  }

  private async *chunks(linkId: number, from: number, to: number): AsyncGenerator<RawClick[]> {
    let after: ClickPosition | null = null;
    for (;;) {
      const rows = await this.deps.clicks.clicksAfter(linkId, from, to, after, CLICK_CHUNK);
      if (rows.length > 0) yield rows;
      if (rows.length < CLICK_CHUNK) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.at, id: last.id };
    }
  }
}
