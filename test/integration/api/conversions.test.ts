// Conversions end to end (docs/api.md §19, docs/design/rules.md): the redirect's signed click id, its
// conversions once per name through the API and the pixel, results per rule and split variant,
// and a split ended by choosing its winner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { makeLink, readLink, redirectsTo, visit } from '../redirect/redirect-support.ts';
import { makeKey } from './workspaces-support.ts';

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

async function clickId(h: Harness, alias: string): Promise<{ url: URL; cid: string }> {
  const url = new URL(await redirectsTo(h, `/${alias}`));
  const cid = url.searchParams.get('lpx_cid');
  assert.ok(cid, `no lpx_cid in ${url.href}`);
  return { url, cid };
}

const convert = (h: Harness, key: string, json: Record<string, unknown>) =>
  h.request('POST', '/api/v1/conversions', { key, json });

async function results(h: Harness, key: string, id: number): Promise<Json[]> {
  await h.server.container.visits.sink.flush();
  const res = await h.request('GET', `/api/v1/stats/${id}?name=conversions`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

onEachEngine('api: conversions', (h) => {
  test('a tracking link adds lpx_cid (the destination’s own wins); a conversion is recorded once per click and name', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://shop.example/p?x=1', track_conversions: 1 });
    assert.equal(link.track_conversions, 1);
    assert.equal((await readLink(h(), key, link.id)).track_conversions, 1);
    const { url, cid } = await clickId(h(), link.alias);
    assert.equal(url.searchParams.get('x'), '1');
    assert.match(cid, /^[A-Za-z0-9_-]{43}$/);

    const first = await convert(h(), key, { click_id: cid, name: 'sale', value: 49.9, currency: 'eur' });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.status, 201);
    assert.deepEqual(
      { ...first.body.data, id: 0, clicked_at: 0, created_at: 0 },
      {
        id: 0,
        link_id: link.id,
        click_id: cid,
        rule: null,
        variant: null,
        name: 'sale',
        value: 49.9,
        currency: 'EUR',
        clicked_at: 0,
        created_at: 0,
      },
    );
    const again = await convert(h(), key, { click_id: cid, name: 'sale', value: 99 });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data, first.body.data, 'the first one, unchanged');
    assert.equal(
      (await convert(h(), key, { click_id: cid, name: 'lead' })).status,
      201,
      'another name is another conversion',
    );

    // Concurrent repeats: one is created, every answer names it.
    const { cid: other } = await clickId(h(), link.alias);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => convert(h(), key, { click_id: other, name: 'lead' })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((a) => a.body.data.id)).size, 1);

    const own = await makeLink(h(), key, { url: 'https://shop.example/?lpx_cid=mine', track_conversions: 1 });
    assert.equal(new URL(await redirectsTo(h(), `/${own.alias}`)).searchParams.get('lpx_cid'), 'mine');
    const plain = await makeLink(h(), key, { url: 'https://shop.example/plain' });
    assert.equal(plain.track_conversions, 0);
    assert.equal(await redirectsTo(h(), `/${plain.alias}`), 'https://shop.example/plain');
  });

  test('bad input is a 422 naming the field; another workspace’s click is a 404; conversions:write alone may record', async () => {
    const owner = await h().account();
    const link = await makeLink(h(), owner.key, { track_conversions: 1 });
    const { cid } = await clickId(h(), link.alias);
    const forged = cid.slice(0, 10) + (cid[10] === 'A' ? 'B' : 'A') + cid.slice(11);
    for (const [body, field] of [
      [{ click_id: forged, name: 'sale' }, 'click_id'],
      [{ click_id: 'nope', name: 'sale' }, 'click_id'],
      [{ click_id: cid, name: 'n'.repeat(65) }, 'name'],
      [{ click_id: cid, name: 'sale', currency: 'EURO' }, 'currency'],
      [{ click_id: cid, name: 'sale', value: 1e13 }, 'value'],
    ] as const) {
      const res = await convert(h(), owner.key, body);
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(Object.keys(res.body.message), [field], res.text);
    }
    const stranger = await h().account();
    assert.equal((await convert(h(), stranger.key, { click_id: cid, name: 'sale' })).status, 404);

    // Names a click converts under are bounded; a repeat of one of them still answers the first.
    const { cid: busy } = await clickId(h(), link.alias);
    for (let i = 0; i < 20; i++)
      assert.equal((await convert(h(), owner.key, { click_id: busy, name: `n${i}` })).status, 201);
    const over = await convert(h(), owner.key, { click_id: busy, name: 'n20' });
    assert.equal(over.status, 422, over.text);
    assert.deepEqual(Object.keys(over.body.message), ['name']);
    assert.equal((await convert(h(), owner.key, { click_id: busy, name: 'n3' })).status, 200);

    const scoped = await makeKey(h(), { id: owner.id, email: owner.email, key: owner.key }, owner.id, [
      'conversions:write',
    ]);
    assert.equal((await convert(h(), scoped, { click_id: cid, name: 'sale' })).status, 201);
    assert.equal((await h().request('GET', `/api/v1/links/${link.id}`, { key: scoped })).status, 403);
    const reader = await makeKey(h(), { id: owner.id, email: owner.email, key: owner.key }, owner.id, [
      'links:read',
      'stats:read',
    ]);
    assert.equal((await convert(h(), reader, { click_id: cid, name: 'lead' })).status, 403);
  });

  test('a form-posted value reads decimals ("12.50", "-3.5"); other spellings (-0 too) are a 422 naming value and what it takes, nothing recorded', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { track_conversions: 1 });
    const form = (fields: Record<string, string>) => h().request('POST', '/api/v1/conversions', { key, form: fields });
    const { cid } = await clickId(h(), link.alias);
    for (const bad of ['1e3', '0x10', ' 1', '1,5', '1.', '.5']) {
      const res = await form({ click_id: cid, name: 'sale', value: bad });
      assert.equal(res.status, 422, `${bad}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body.message), ['value'], bad);
    }
    // The message names what is accepted: decimals are, so "must be an integer" would mislead.
    const word = await form({ click_id: cid, name: 'sale', value: 'twelve' });
    assert.deepEqual(
      word.body.message,
      { value: ['The value field must be a number such as 12.50 or -3.5.'] },
      word.text,
    );
    const json = await h().request('POST', '/api/v1/conversions', {
      key,
      json: { click_id: cid, name: 'sale', value: 'twelve' },
    });
    assert.deepEqual(
      json.body.message,
      { value: ['The value field must be a number such as 12.50 or -3.5.'] },
      json.text,
    );
    // -0 is no spelling of a number (docs/api.md §1): as text, or as a JSON number.
    const zeros = [
      await form({ click_id: cid, name: 'sale', value: '-0' }),
      await form({ click_id: cid, name: 'sale', value: '-0.00' }),
      await h().request('POST', '/api/v1/conversions', { key, json: { click_id: cid, name: 'sale', value: '-0' } }),
      await h().request('POST', '/api/v1/conversions', {
        key,
        headers: { 'content-type': 'application/json' },
        body: `{"click_id":"${cid}","name":"sale","value":-0}`,
      }),
    ];
    for (const res of zeros) {
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(Object.keys(res.body.message), ['value'], res.text);
    }
    const sale = await form({ click_id: cid, name: 'sale', value: '12.50', currency: 'eur' });
    assert.equal(sale.status, 201, sale.text);
    assert.equal(sale.body.data.value, 12.5);
    const refund = await form({ click_id: cid, name: 'refund', value: '-3.5' });
    assert.equal(refund.status, 201, refund.text);
    assert.equal(refund.body.data.value, -3.5);
  });

  test('the pixel records the same way and always answers a GIF, never cached; the alias c still works', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { track_conversions: 1 });
    const { cid } = await clickId(h(), link.alias);
    const gif = await visit(h(), `/c/${cid}.gif?name=lead&value=12.50&currency=usd`, { accept: 'image/*' });
    assert.equal(gif.status, 200);
    assert.equal(gif.headers['content-type'], 'image/gif');
    assert.match(String(gif.headers['cache-control']), /no-store/);
    for (const path of [`/c/${cid}.gif?name=lead`, `/c/${cid}.gif`, '/c/garbage.gif?name=lead']) {
      const res = await visit(h(), path, { accept: 'image/*' });
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], 'image/gif', path);
    }
    const repeat = await convert(h(), key, { click_id: cid, name: 'lead' });
    assert.equal(repeat.status, 200, 'the pixel recorded it');
    assert.equal(repeat.body.data.value, 12.5);
    assert.equal(repeat.body.data.currency, 'USD');

    const c = await makeLink(h(), key, { alias: 'c', url: 'https://c.example/' });
    assert.equal(c.alias, 'c');
    assert.equal(await redirectsTo(h(), '/c'), 'https://c.example/');
    assert.equal((await visit(h(), '/c/+')).status, 200, "the alias's preview");
  });

  test('results keep value as sent, whatever the currency, and sum values per currency', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://shop.example/', track_conversions: 1 });
    const sent: [number, string | null][] = [
      [200, 'eur'],
      [49.5, 'EUR'],
      [10, 'USD'],
      [3, null],
    ];
    for (const [value, currency] of sent) {
      const { cid } = await clickId(h(), link.alias);
      const res = await convert(h(), key, { click_id: cid, name: 'sale', value, ...(currency ? { currency } : {}) });
      assert.equal(res.status, 201, res.text);
    }
    const { cid } = await clickId(h(), link.alias);
    assert.equal((await convert(h(), key, { click_id: cid, name: 'lead' })).status, 201);
    const [plain] = await results(h(), key, link.id);
    assert.equal(plain.clicks, 5);
    assert.deepEqual(plain.conversions, {
      sale: { count: 4, value: 262.5, values: { EUR: 249.5, USD: 10 } },
      lead: { count: 1, value: 0, values: {} },
    });
  });

  test('results per rule and split variant, with the p-value against the first; a winner ends the split', async () => {
    const { key, id: workspace } = await h().account();
    const link = await makeLink(h(), key, {
      url: 'https://default.example/',
      track_conversions: 1,
      rules: JSON.stringify(SPLIT),
    });
    const byVariant = new Map<string, string[]>();
    for (let i = 0; i < 40; i++) {
      const { url, cid } = await clickId(h(), link.alias);
      byVariant.set(url.origin, [...(byVariant.get(url.origin) ?? []), cid]);
    }
    const a = byVariant.get('https://a.example') ?? [];
    const b = byVariant.get('https://b.example') ?? [];
    assert.equal(a.length + b.length, 40);
    assert.ok(a.length > 0 && b.length > 0, 'both variants drawn');
    for (const cid of a.slice(0, 1))
      assert.equal((await convert(h(), key, { click_id: cid, name: 'sale', value: 10 })).status, 201);
    for (const cid of b.slice(0, Math.min(b.length, 5)))
      assert.equal((await convert(h(), key, { click_id: cid, name: 'sale', value: 20 })).status, 201);

    const rows = await results(h(), key, link.id);
    const row = (variant: number | null) =>
      rows.find((r) => r.rule === (variant === null ? null : 0) && r.variant === variant);
    assert.deepEqual(
      rows.map((r) => [r.rule, r.variant, r.url]),
      [
        [0, 0, 'https://a.example/'],
        [0, 1, 'https://b.example/'],
        [null, null, 'https://default.example/'],
      ],
    );
    assert.equal(row(0).clicks, a.length);
    assert.equal(row(1).clicks, b.length);
    assert.deepEqual(row(0).conversions, { sale: { count: 1, value: 10, values: {} } });
    assert.equal(row(1).conversions.sale.count, Math.min(b.length, 5));
    assert.equal(row(0).rate, 1 / a.length);
    assert.equal(row(0).p_value, null);
    assert.equal(typeof row(1).p_value, 'number');
    assert.equal(row(null).clicks, 0);

    assert.equal(
      (await h().request('POST', `/api/v1/links/${link.id}/rules/0/winner`, { key, json: { variant: 2 } })).status,
      422,
    );
    const won = await h().request('POST', `/api/v1/links/${link.id}/rules/0/winner`, { key, json: { variant: 1 } });
    assert.equal(won.status, 200, won.text);
    assert.deepEqual(won.body.data.rules, [{ name: 'Test', when: {}, url: 'https://b.example/' }]);
    for (let i = 0; i < 5; i++)
      assert.equal(new URL(await redirectsTo(h(), `/${link.alias}`)).origin, 'https://b.example');
    // The winner is a change of the link's rules: the audit log tells who made it (docs/design/teams.md).
    const audit = await h().request(
      'GET',
      `/api/v1/workspaces/${workspace}/audit?action=link.updated&target_id=${link.id}`,
      { key },
    );
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.data.length, 1, audit.text);
    assert.equal(audit.body.data[0].via, 'api');
    assert.deepEqual(
      audit.body.data[0].changes.rules?.[1],
      [{ name: 'Test', when: {}, url: 'https://b.example/' }],
      audit.text,
    );
    const stranger = await h().account();
    assert.equal(
      (await h().request('GET', `/api/v1/stats/${link.id}?name=conversions`, { key: stranger.key })).status,
      404,
    );
  });
});
