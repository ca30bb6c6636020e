// The click writer in process (ClickWriter over each engine's writes, docs/design/clicks.md): what one
// batch leaves in the rows, the links' counters and rotation positions, and the rollups, on
// both engines (each writes with its own statements: unnest arrays, prepared multi-row VALUES).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { InProcessClickWriter } from '../../../src/adapters/clicks/thread/in-process-click-writer.ts';
import { toBatch, writeDue } from '../../support/click-hand-over.ts';
import type { Click } from '../../../src/core/clicks/click.ts';
import { ENGINES } from '../../support/harness.ts';
import { openClickDb, type ClickDb } from './click-db.ts';
import { linkCounter } from '../../support/link-rows.ts';

const DAY = '2026-11-24';

function click(linkId: number, accountId: number, extra: Partial<Click> = {}): Click {
  return {
    linkId,
    accountId,
    at: Date.parse(`${DAY}T10:00:00Z`),
    day: DAY,
    hour: 10,
    visitor: 'v1',
    country: 'DE',
    city: null,
    browser: 'Firefox',
    platform: 'Linux',
    device: 'desktop',
    language: 'de',
    referrerHost: null,
    isBot: false,
    ...extra,
  };
}

for (const engine of ENGINES) {
  describe(`the in-process click writer [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let db: ClickDb;
    let store: InProcessClickWriter;

    before(async () => {
      db = await openClickDb(engine.name);
      store = InProcessClickWriter.over(db.storage, {
        windowMs: 0,
        onError: (error) => {
          throw error;
        },
      });
    });
    after(async () => {
      await db?.close();
    });

    const linkState = async (id: number) => {
      const link = (await linkCounter(db.storage.db, id))!;
      const rows = await db.storage.db
        .selectFrom('clicks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('link_id', '=', id)
        .executeTakeFirstOrThrow();
      const rollups = await db.storage.db
        .selectFrom('click_rollups')
        .select(['dimension', 'value', 'count'])
        .where('link_id', '=', id)
        .orderBy('dimension')
        .orderBy('value')
        .execute();
      return {
        clicks: Number(link.clicks),
        rotation: Number(link.last_rotation),
        rows: Number(rows.n),
        rollups: Object.fromEntries(rollups.map((r) => [`${r.dimension}:${r.value}`, Number(r.count)])),
      };
    };

    test("rows, counters, last rotation and rollups of one batch; a deleted link's clicks are dropped; a visitor is unique once a day", async () => {
      const [a, b, gone] = (await db.links(3)) as [number, number, number];
      await db.storage.db.deleteFrom('links').where('id', '=', gone).execute();
      const acc = db.accountId;
      await writeDue(
        store,
        toBatch([
          { click: click(b, acc, { visitor: 'v9', country: 'US' }), rotation: 2 },
          { click: click(a, acc) },
          { click: click(gone, acc) },
          { click: click(a, acc, { country: null }) },
          { click: click(a, acc, { visitor: null, isBot: true }) },
          { click: click(b, acc, { visitor: 'v8' }), rotation: 5 },
          { click: click(a, acc, { visitor: 'v2', browser: 'Chrome' }) },
        ]),
      );
      assert.deepEqual(await linkState(a), {
        clicks: 3,
        rotation: 0,
        rows: 4,
        rollups: {
          'bot:': 1,
          'browser:Chrome': 1,
          'browser:Firefox': 2,
          'city:': 3,
          'country:': 1,
          'country:DE': 2,
          'device:desktop': 3,
          'hour:10': 3,
          'language:de': 3,
          'platform:Linux': 3,
          'referrer:': 3,
          'total:': 3,
          'unique:': 2,
        },
      });
      const before = await linkState(b);
      assert.deepEqual(
        [
          before.clicks,
          before.rotation,
          before.rows,
          before.rollups['total:'],
          before.rollups['unique:'],
          before.rollups['country:US'],
        ],
        [2, 5, 2, 2, 2, 1],
      );
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from click_rollups where link_id = ${gone}`.execute(db.storage.db);
      assert.equal(Number(rows[0]!.n), 0);

      // The same visitor again the same day: a click, not a new unique visitor.
      await writeDue(store, toBatch([{ click: click(a, acc) }]));
      const after = await linkState(a);
      assert.deepEqual([after.clicks, after.rows, after.rollups['total:'], after.rollups['unique:']], [4, 5, 4, 2]);
    });

    test('values are stored as given: quotes, backslashes, commas, braces, the word NULL, non-ASCII', async () => {
      const [id] = (await db.links(1)) as [number];
      const odd = { referrerHost: 'a"b\\c,{d}', language: 'NULL', browser: 'Navigateur é 🙂', country: null, city: '' };
      await writeDue(store, toBatch([{ click: click(id, db.accountId, { ...odd, visitor: 'x"\\' }) }]));
      const row = await db.storage.db
        .selectFrom('clicks')
        .select(['referrer_host', 'language', 'browser', 'country', 'city'])
        .where('link_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, {
        referrer_host: odd.referrerHost,
        language: 'NULL',
        browser: odd.browser,
        country: null,
        city: '',
      });
      const rollups = await linkState(id);
      assert.equal(rollups.rollups[`referrer:${odd.referrerHost}`], 1);
      assert.equal(rollups.rollups['language:NULL'], 1);
      assert.equal(rollups.rollups[`browser:${odd.browser}`], 1);
      assert.equal(rollups.rollups['unique:'], 1);
    });

    test('a batch larger than any one statement of the multi-row form: 1 200 clicks over 600 links, totals exact', async () => {
      const ids = await db.links(600);
      await writeDue(
        store,
        toBatch(
          Array.from({ length: 1200 }, (_, i) => ({
            click: click(ids[i % 600]!, db.accountId, { visitor: `v${i}`, isBot: i % 10 === 0 }),
            rotation: i,
          })),
        ),
      );
      const { rows } = await sql<{
        clicks: number;
        rotations: number;
        rows: number;
        total: number;
        unique: number;
        bots: number;
      }>`
        select ((select coalesce(sum(clicks), 0) from links where id in (${sql.join(ids)})) + (select coalesce(sum(clicks), 0) from link_click_counts where link_id in (${sql.join(ids)}))) as clicks,
               (select sum(coalesce(p.last_rotation, l.last_rotation)) from links l left join link_click_counts p on p.link_id = l.id
                 where l.id in (${sql.join(ids)})) as rotations,
               (select count(*) from clicks where link_id in (${sql.join(ids)})) as rows,
               (select sum(count) from click_rollups where dimension = 'total' and link_id in (${sql.join(ids)})) as total,
               (select sum(count) from click_rollups where dimension = 'unique' and link_id in (${sql.join(ids)})) as "unique",
               (select sum(count) from click_rollups where dimension = 'bot' and link_id in (${sql.join(ids)})) as bots`.execute(
        db.storage.db,
      );
      const r = rows[0]!;
      // Link k's rotation is the last position it was served at: 600 + k.
      assert.deepEqual([r.clicks, r.rotations, r.rows, r.total, r.unique, r.bots].map(Number), [
        1080,
        600 * 600 + (599 * 600) / 2,
        1200,
        1080,
        1080,
        120,
      ]);
    });
  });
}
