// link.expired (api.md §14, docs/design/webhooks.md): told once per link, by date and by click cap, claimed through the
// database.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { SqlExpiryClaims } from '../../../src/adapters/storage/stores/expiry-claims.ts';

const receiver = new WebhookReceiver();
before(() => receiver.start());
after(() => receiver.close());

// Moves with real time; a test jumps it ahead to pass a link's date.
let offset = 0;
const clock = { now: () => Date.now() + offset };
let paths = 0;

async function hook(h: Harness, key: string): Promise<string> {
  const path = `/expired-hook/${++paths}`;
  const res = await h.request('POST', '/api/v1/webhooks', {
    key,
    json: { url: receiver.url + path, events: ['link.expired'] },
  });
  assert.equal(res.status, 201, res.text);
  return path;
}

async function link(h: Harness, key: string, fields: Record<string, unknown>): Promise<{ id: number; alias: string }> {
  const res = await h.request('POST', '/api/v1/links', { key, json: { url: 'https://example.com/x', ...fields } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

// A person's browser: bots use no click of a cap.
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const visit = async (h: Harness, alias: string) =>
  (await fetch(`${h.baseUrl}/${alias}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } })).status;
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));
/** The account's time zone is UTC: the wall time an hour from the clock's now. */
const inAnHour = () => {
  const iso = new Date(clock.now() + 3_600_000).toISOString();
  return { expiration_date: iso.slice(0, 10), expiration_time: iso.slice(11, 16) };
};

onEachEngine(
  'webhooks: link.expired',
  (h) => {
    test('by click cap: told once, after the visit that reaches the cap; told again when an update opens the link and it expires anew', async () => {
      const { key } = await h().account();
      const path = await hook(h(), key);
      const capped = await link(h(), key, { expiration_clicks: 2 });
      const open = await link(h(), key, {});
      assert.equal(await visit(h(), capped.alias), 302);
      assert.equal(await visit(h(), open.alias), 302);
      await settle();
      assert.deepEqual(receiver.on(path), [], 'one click of two: not expired');
      assert.equal(await visit(h(), capped.alias), 302);
      await eventually('the link.expired', () => receiver.on(path).length === 1);
      const [got] = receiver.on(path);
      assert.equal(got!.json.type, 'link.expired');
      assert.deepEqual([got!.json.data.link.id, got!.json.data.link.clicks], [capped.id, 2]);
      assert.equal(await visit(h(), capped.alias), 410);
      await settle();
      assert.equal(receiver.on(path).length, 1, 'once per link');
      assert.equal(
        (await h().request('PATCH', `/api/v1/links/${capped.id}`, { key, json: { expiration_clicks: 3 } })).status,
        200,
      );
      await settle();
      assert.equal(receiver.on(path).length, 1, 'opened again: not expired');
      assert.equal(await visit(h(), capped.alias), 302);
      await eventually('the second link.expired', () => receiver.on(path).length === 2);
      assert.equal(receiver.on(path)[1]!.json.data.link.clicks, 3);
    });

    test('by date: told once when the date passes; an update that leaves a link expired tells nothing more; another account hears nothing', async () => {
      const { key } = await h().account();
      const path = await hook(h(), key);
      const stranger = await h().account();
      const strangerPath = await hook(h(), stranger.key);
      const dated = await link(h(), key, inAnHour());
      await link(h(), stranger.key, { expiration_date: '2099-01-01', expiration_time: '00:00' });
      await settle();
      assert.deepEqual(receiver.on(path), []);
      offset += 2 * 3_600_000;
      await eventually('the link.expired', () => receiver.on(path).length === 1);
      assert.deepEqual(
        [receiver.on(path)[0]!.json.type, receiver.on(path)[0]!.json.data.link.id],
        ['link.expired', dated.id],
      );
      assert.equal(await visit(h(), dated.alias), 410);
      assert.equal(
        (await h().request('PATCH', `/api/v1/links/${dated.id}`, { key, json: { title: 'still expired' } })).status,
        200,
      );
      await settle();
      assert.equal(receiver.on(path).length, 1);
      assert.deepEqual(receiver.on(strangerPath), []);
    });
  },
  {
    env: { OUTBOUND_ALLOW_PRIVATE: 'true', CLICK_FLUSH_INTERVAL_MS: '20' },
    overrides: { clock, tuning: { WEBHOOK_POLL_MS: 50, WEBHOOK_EXPIRY_SWEEP_MS: 50, STATS_FLUSH_INTERVAL_MS: 0 } },
  },
);

onEachEngine(
  'expired links claimed by instances at once',
  (h) => {
    test('two claims together take each expired link once between them, and never again', async () => {
      const { key } = await h().account();
      const ids: number[] = [];
      for (let i = 0; i < 40; i++) ids.push((await link(h(), key, inAnHour())).id);
      await link(h(), key, { expiration_date: '2099-01-01', expiration_time: '00:00' });
      const { db } = h().server.container.storage;
      const [a, b] = [new SqlExpiryClaims(db, h().engine), new SqlExpiryClaims(db, h().engine)];
      const later = clock.now() + 2 * 3_600_000;
      const [x, y] = await Promise.all([a.claim(later, 25), b.claim(later, 25)]);
      const more = await a.claim(later, 25);
      const taken = [...x, ...y, ...more].map((c) => c.id);
      assert.deepEqual(
        [...taken].sort((p, q) => p - q),
        ids,
        'each once',
      );
      assert.deepEqual(await b.claim(later, 25), []);
    });
  },
  // The sweep of the server itself would claim them first.
  { overrides: { clock, tuning: { WEBHOOK_EXPIRY_SWEEP_MS: 3600000 } } },
);
