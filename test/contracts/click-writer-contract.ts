// What every click writer behind the sink promises (ColumnsWriter, src/adapters/clicks/sink/
// columnar-click-sink.ts), as ColumnarClickSink relies on it: once clicks are handed over and the
// writer settled (a flush), every click is a row (bots included), the link's clicks grew by the
// batch's human count, its last rotation is the batch's, and its day's total and unique visitors
// are summed. Run against the in-process click writer on both engines, with and without a rollup
// window; the writer threads' own files: test/integration/clicks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ColumnsWriter } from '../../src/adapters/clicks/sink/columnar-click-sink.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/adapters/storage/schema.ts';
import { aClick, clickRowsOf, rollupCount } from '../support/clicks.ts';
import { linkCounter } from '../support/link-rows.ts';
import { handOver, toBatch, type ClickBatch } from '../support/click-hand-over.ts';

export interface ClickWriterSubject {
  writer: ColumnsWriter;
  /** A fresh link of a fresh account. */
  link: () => Promise<{ id: number; accountId: number }>;
  deleteLink: (linkId: number) => Promise<void>;
  /** What the link's rows and counters say now, on CLICK_DAY (all 0 for a link that is gone). */
  state: (linkId: number) => Promise<{ rows: number; clicks: number; rotation: number; total: number; unique: number }>;
}

const CLICK_DAY = '2026-11-24';
const at = Date.parse(`${CLICK_DAY}T10:00:00Z`);

/** ClickWriterSubject's state, read from the tables every click writer writes. */
export function sqlClickState(db: Kysely<Database>): ClickWriterSubject['state'] {
  return async (id) => {
    const row = await linkCounter(db, id);
    return {
      rows: await clickRowsOf(db, id),
      clicks: Number(row?.clicks ?? 0),
      rotation: Number(row?.last_rotation ?? 0),
      total: Number(await rollupCount(db, id, CLICK_DAY, 'total')),
      unique: Number(await rollupCount(db, id, CLICK_DAY, 'unique')),
    };
  };
}

export function describeClickWriterContract(name: string, make: () => ClickWriterSubject): void {
  describe(`${name}: the click writer contract`, () => {
    // Handed over as the sink hands clicks over, then settled as a flush settles them.
    const written = async (s: ClickWriterSubject, batch: ClickBatch) => {
      handOver(s.writer, batch);
      await s.writer.settle();
    };

    test('a batch: every click a row, human clicks counted, the last rotation kept (0 before any), the day’s total and unique visitors summed', async () => {
      const s = make();
      const [a, b] = [await s.link(), await s.link()];
      const click = (link: { id: number; accountId: number }, over: Parameters<typeof aClick>[0] = {}) =>
        aClick({ linkId: link.id, accountId: link.accountId, at, day: CLICK_DAY, hour: 10, visitor: 'v1', ...over });
      await written(
        s,
        toBatch([
          { click: click(a), rotation: 0 },
          { click: click(a, { visitor: 'v2' }), rotation: 2 },
          { click: click(a, { isBot: true, visitor: null }) },
          { click: click(b, { visitor: 'v3' }) },
        ]),
      );
      assert.deepEqual(await s.state(a.id), { rows: 3, clicks: 2, rotation: 2, total: 2, unique: 2 });
      assert.deepEqual(await s.state(b.id), { rows: 1, clicks: 1, rotation: 0, total: 1, unique: 1 });

      await written(s, toBatch([{ click: click(a) }, { click: click(a, { visitor: 'v4' }), rotation: 1 }]));
      assert.deepEqual(
        await s.state(a.id),
        { rows: 5, clicks: 4, rotation: 1, total: 4, unique: 3 },
        'v1 again the same day is not a new visitor',
      );
    });

    test('a deleted link’s clicks are dropped; the rest of the batch is written', async () => {
      const s = make();
      const [kept, gone] = [await s.link(), await s.link()];
      await s.deleteLink(gone.id);
      const click = (link: { id: number; accountId: number }) =>
        aClick({ linkId: link.id, accountId: link.accountId, at, day: CLICK_DAY, hour: 10 });
      await written(s, toBatch([{ click: click(gone), rotation: 1 }, { click: click(kept) }]));
      assert.deepEqual(await s.state(kept.id), { rows: 1, clicks: 1, rotation: 0, total: 1, unique: 0 });
      assert.deepEqual(await s.state(gone.id), { rows: 0, clicks: 0, rotation: 0, total: 0, unique: 0 });
    });
  });
}
