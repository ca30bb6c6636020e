// docs/web.md "Live numbers", docs/design/statistics.md: the signed-in account's clicks as Server-Sent Events,
// within 2 s of the click while the rollups wait a minute.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, startHarness } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { eventually } from '../../support/eventually.ts';
import { heardClicks, openLiveStream } from '../../support/live-stream.ts';
import { createLink, visit, UA } from '../stats/stats-support.ts';
import { webAccount } from '../../support/web-resources.ts';

onEachEngine(
  'web: live numbers',
  (h) => {
    test('signed out: no stream, the sign-in page', async () => {
      const anonymous = new WebClient(h().baseUrl);
      const reply = await anonymous.get('/account/live');
      assert.equal(reply.status, 303);
      assert.equal(reply.location, '/login?next=%2Faccount%2Flive');
    });

    test("a click reaches the account's stream within 2 s; another account's never does; bots are not counted", async () => {
      const mine = await webAccount(h());
      const theirs = await webAccount(h());
      const link = await createLink(h(), mine.key);
      const other = await createLink(h(), theirs.key);
      const stream = await openLiveStream(h().baseUrl, mine.client);
      try {
        assert.equal(stream.status, 200);
        assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
        assert.equal(stream.headers.get('cache-control'), 'no-store');
        assert.equal(stream.headers.get('x-accel-buffering'), 'no');
        await eventually('the stream opened', () => stream.text().includes(': open'));
        await visit(h(), other);
        await visit(h(), other);
        await visit(h(), link, { ua: UA.googlebot });
        const clicked = Date.now();
        await visit(h(), link);
        await visit(h(), link);
        await eventually('both clicks heard', () => heardClicks(stream) === 2, { timeoutMs: 2000 });
        assert.ok(Date.now() - clicked < 2000);
        assert.equal(heardClicks(stream, link.id), 2);
        assert.equal(heardClicks(stream, other.id), 0, "the other account's link is never named");
        // Nothing more arrives: their clicks and the bot's were never on the way.
        await new Promise((resolve) => setTimeout(resolve, 400));
        assert.equal(heardClicks(stream), 2);
      } finally {
        stream.close();
      }
    });

    test('streams are capped per account (429 past the cap); a closed one frees its place', async () => {
      const { client } = await webAccount(h());
      const streams = [];
      for (let i = 0; i < 8; i++) streams.push(await openLiveStream(h().baseUrl, client));
      assert.deepEqual(
        streams.map((s) => s.status),
        Array(8).fill(200),
      );
      const refused = await openLiveStream(h().baseUrl, client);
      assert.equal(refused.status, 429);
      streams[0]!.close();
      let again = await openLiveStream(h().baseUrl, client);
      for (let i = 0; again.status !== 200 && i < 40; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        again = await openLiveStream(h().baseUrl, client);
      }
      assert.equal(again.status, 200);
      for (const s of [...streams, again]) s.close();
    });

    test('the dashboard and a link statistics page mark their live totals; a past range is not live', async () => {
      const { client, key } = await webAccount(h());
      const link = await createLink(h(), key);
      const dashboard = await client.get('/dashboard');
      assert.match(dashboard.text, /<p class="value" data-metric="clicks" data-value="0">0<\/p>/);
      assert.match(dashboard.text, new RegExp(`data-metric="clicks" data-value="0" data-link-id="${link.id}"`));
      const stats = await client.get(`/stats/${link.id}`);
      assert.match(
        stats.text,
        new RegExp(`data-stat="total" data-metric="clicks" data-value="0" data-link-id="${link.id}"`),
      );
      const past = await client.get(`/stats/${link.id}?range=yesterday`);
      assert.match(past.text, /data-stat="total">/);
      assert.doesNotMatch(past.text, /data-metric="clicks"/);
    });
  },
  { overrides: { tuning: { STATS_FLUSH_INTERVAL_MS: 60000 } } },
);

test('a stopping server ends its live streams rather than waiting on them', async () => {
  const h = await startHarness('sqlite');
  let closed = false;
  try {
    const { client } = await signedUp(h.baseUrl);
    const stream = await openLiveStream(h.baseUrl, client);
    assert.equal(stream.status, 200);
    await eventually('the stream opened', () => stream.text().includes(': open'));
    const started = Date.now();
    await h.close();
    closed = true;
    await stream.ended;
    assert.ok(Date.now() - started < 5000, 'the stop was not held');
  } finally {
    if (!closed) await h.close();
  }
});
