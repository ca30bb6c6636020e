import { sql, type Kysely } from 'kysely';
import type { ClickSpan } from '../../../core/stats/filtered-clicks.ts';
import type { ClickFacts } from '../../../core/rules/replay.ts';
import type { ReplayClickStore } from '../../../core/rules/rule-preview.ts';
import type { Storage } from '../connect.ts';
import type { Database } from '../schema.ts';
import { SqlFilteredClickStore } from './filtered-click-store.ts';
import { rowsInChunks } from './rows-in-chunks.ts';

const MINUTE_MS = 60_000;

/**
 * The preview's read of a link's clicks (docs/design/rules.md, Preview): one GROUP BY over the span's rows, so the
 * database hands over each distinct combination of facts once with its count, never row by row;
 * the span is bounded by the core to the newest rows, through the filtered statistics' cut. Both
 * go through up to that many rows, and answer as many groups: read through `storage.reads`, the
 * groups handed over a chunk at a time (docs/design/event-loop.md).
 */
export class SqlReplayClickStore implements ReplayClickStore {
  private readonly db: Kysely<Database>;
  private readonly filtered: SqlFilteredClickStore;

  constructor(private readonly storage: Pick<Storage, 'db' | 'reads' | 'engine'>) {
    this.db = storage.reads;
    this.filtered = new SqlFilteredClickStore(storage);
  }

  newestFrom(linkId: number, span: ClickSpan, rows: number): Promise<number | null> {
    return this.filtered.newestFrom(linkId, span, rows);
  }

  async *groups(linkId: number, span: ClickSpan, byMinute: boolean): AsyncGenerator<ClickFacts[]> {
    // With the rule and variant each click recorded, so the replay reads a split's real outcome.
    const columns = [
      'country',
      'platform',
      'browser',
      'device',
      'language',
      'referrer_host',
      'rule',
      'variant',
    ] as const;
    // `at` is an integer on both engines: the division truncates.
    const minute = byMinute
      ? sql<number | string | null>`${sql.ref('at')} / ${sql.lit(MINUTE_MS)}`
      : sql<number | string | null>`null`;
    let q = this.db
      .selectFrom('clicks')
      .where('link_id', '=', linkId)
      .where('at', '>=', span.from)
      .where('at', '<', span.to)
      .where('is_bot', '=', 0)
      .select([...columns, minute.as('minute'), (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy([...columns]);
    // In time order: the replay reads a zone's local time once a minute (time-window.ts).
    if (byMinute) q = q.groupBy(minute).orderBy(minute);
    const known = (v: string | null) => (v === '' ? null : v);
    for await (const rows of rowsInChunks(this.storage, q)) {
      yield rows.map((r) => ({
        country: known(r.country),
        platform: known(r.platform),
        browser: known(r.browser),
        device: known(r.device),
        language: known(r.language),
        referrerHost: known(r.referrer_host),
        rule: r.rule ?? null,
        variant: r.variant ?? null,
        minute: r.minute === null ? null : Number(r.minute) * MINUTE_MS,
        count: Number(r.count),
      }));
    }
  }
}
