// What the click sink promises (ClickSink, src/core/clicks/ports.ts) whatever writes behind it:
// once flushed, every click recorded before is a row (bots included), each link's clicks grew by
// its human clicks, its last rotation is the latest recorded, and its day's total is summed; a
// close writes everything recorded before it; a deleted link's clicks are dropped, the others
// written. Run against each arrangement of the one click pipeline (docs/design/clicks.md): the writer
// thread on a SQLite file and on PostgreSQL, and the writer in process for an in-memory SQLite.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClickSink } from '../../src/core/clicks/ports.ts';
import { aClick } from '../support/clicks.ts';
import type { sqlClickState } from './click-writer-contract.ts';

export interface ClickSinkSubject {
  sink: ClickSink;
  /** A fresh link of a fresh account. */
  link: () => Promise<{ id: number; accountId: number }>;
  deleteLink: (linkId: number) => Promise<void>;
  state: ReturnType<typeof sqlClickState>;
}

const SINK_CLICK_DAY = '2026-11-24';
const at = Date.parse(`${SINK_CLICK_DAY}T10:00:00Z`);

const clickOf = (link: { id: number; accountId: number }, over: Parameters<typeof aClick>[0] = {}) =>
  aClick({ linkId: link.id, accountId: link.accountId, at, day: SINK_CLICK_DAY, hour: 10, visitor: null, ...over });

/** `make` gives a new sink (and writer) each test, on a database the suite keeps. */
export function describeClickSinkContract(name: string, make: () => Promise<ClickSinkSubject>): void {
  describe(`${name}: the ClickSink contract`, () => {
    test('flushed: every click a row, human clicks counted, the latest rotation kept, the day’s total summed', async () => {
      const s = await make();
      try {
        const [a, b] = [await s.link(), await s.link()];
        for (let i = 0; i < 250; i++) s.sink.record(clickOf(a, { isBot: i % 10 === 0 }), i % 7);
        s.sink.record(clickOf(b));
        await s.sink.flush();
        const humans = 250 - 25;
        assert.deepEqual(await s.state(a.id), {
          rows: 250,
          clicks: humans,
          rotation: 249 % 7,
          total: humans,
          unique: 0,
        });
        assert.deepEqual(await s.state(b.id), { rows: 1, clicks: 1, rotation: 0, total: 1, unique: 0 });
        s.sink.record(clickOf(b), 3);
        await s.sink.flush();
        assert.deepEqual(await s.state(b.id), { rows: 2, clicks: 2, rotation: 3, total: 2, unique: 0 });
      } finally {
        await s.sink.close();
      }
    });

    test('close writes every click recorded before it', async () => {
      const s = await make();
      const a = await s.link();
      for (let i = 0; i < 1200; i++) s.sink.record(clickOf(a));
      await s.sink.close();
      assert.deepEqual(await s.state(a.id), { rows: 1200, clicks: 1200, rotation: 0, total: 1200, unique: 0 });
    });

    test('a deleted link’s clicks are dropped; the others are written', async () => {
      const s = await make();
      try {
        const [kept, gone] = [await s.link(), await s.link()];
        s.sink.record(clickOf(gone), 1);
        s.sink.record(clickOf(kept));
        await s.deleteLink(gone.id);
        await s.sink.flush();
        assert.deepEqual(await s.state(kept.id), { rows: 1, clicks: 1, rotation: 0, total: 1, unique: 0 });
        assert.deepEqual(await s.state(gone.id), { rows: 0, clicks: 0, rotation: 0, total: 0, unique: 0 });
      } finally {
        await s.sink.close();
      }
    });
  });
}
