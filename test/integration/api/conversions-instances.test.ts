// Conversions across two instances on one PostgreSQL schema (docs/design/rules.md): a click id one
// instance signed is checked by the other (the secret is the database's), a conversion is
// recorded once whichever instance hears it first, and the results count both instances' clicks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../../support/harness.ts';
import { makeLink, redirectsTo } from '../redirect/redirect-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const SPLIT = [
  {
    name: 'Test',
    when: {},
    split: [
      { url: 'https://a.example/', weight: 50 },
      { url: 'https://b.example/', weight: 50 },
    ],
  },
];

describe(
  'api: conversions on two instances sharing PostgreSQL',
  { skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set: the PostgreSQL run did not happen' },
  () => {
    let a: Harness;
    let b: Harness;

    before(async () => {
      a = await startHarness('postgres');
      b = await startHarness('postgres', { pgSchema: a.pgSchema! });
    });

    after(async () => {
      await b?.close();
      await a?.close();
    });

    test("each instance takes the other's click ids, once per name; results count both instances' clicks per variant", async () => {
      const { key } = await a.account();
      const link = await makeLink(a, key, {
        url: 'https://default.example/',
        track_conversions: 1,
        rules: JSON.stringify(SPLIT),
      });
      const drawn = new Map<string, number>();
      const ids: Array<{ cid: string; on: Harness; other: Harness }> = [];
      for (let i = 0; i < 30; i++) {
        const [on, other] = i % 2 === 0 ? [a, b] : [b, a];
        const url = new URL(await redirectsTo(on, `/${link.alias}`));
        drawn.set(url.origin, (drawn.get(url.origin) ?? 0) + 1);
        ids.push({ cid: url.searchParams.get('lpx_cid')!, on, other });
      }
      for (const { cid, on, other } of ids.slice(0, 10)) {
        const first = await other.request('POST', '/api/v1/conversions', {
          key,
          json: { click_id: cid, name: 'sale', value: 5 },
        });
        assert.equal(first.status, 201, first.text);
        const again = await on.request('POST', '/api/v1/conversions', { key, json: { click_id: cid, name: 'sale' } });
        assert.equal(again.status, 200, again.text);
        assert.equal(again.body.data.id, first.body.data.id);
      }
      await a.server.container.visits.sink.flush();
      await b.server.container.visits.sink.flush();
      for (const h of [a, b]) {
        const res = await h.request('GET', `/api/v1/stats/${link.id}?name=conversions`, { key });
        assert.equal(res.status, 200, res.text);
        const rows: Json[] = res.body.data;
        const variant = (v: number) => rows.find((r) => r.rule === 0 && r.variant === v);
        assert.equal(variant(0).clicks, drawn.get('https://a.example') ?? 0);
        assert.equal(variant(1).clicks, drawn.get('https://b.example') ?? 0);
        assert.equal((variant(0).conversions.sale?.count ?? 0) + (variant(1).conversions.sale?.count ?? 0), 10);
      }
    });
  },
);
