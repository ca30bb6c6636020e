import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENGINES, onEachEngine, startHarness, type Harness } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { verifySignature } from '../../../src/core/webhooks/signature.ts';

const receiver = new WebhookReceiver();
before(() => receiver.start());
after(() => receiver.close());

// Moves with real time; a test jumps it ahead to make a retry due or a day of failures pass.
let offset = 0;
const clock = { now: () => Date.now() + offset };
let paths = 0;

async function hook(h: Harness, key: string, events: string[]): Promise<{ id: number; path: string; secret: string }> {
  const path = `/hook/${++paths}`;
  const res = await h.request('POST', '/api/v1/webhooks', { key, json: { url: receiver.url + path, events } });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.data.id, path, secret: res.body.data.secret };
}

async function link(h: Harness, key: string, url = 'https://example.com/a'): Promise<{ id: number; alias: string }> {
  const res = await h.request('POST', '/api/v1/links', { key, json: { url } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

onEachEngine(
  'webhooks',
  (h) => {
    test('a webhook is created with its secret shown once, listed, read and deleted', async () => {
      const { key } = await h().account();
      const made = await h().request('POST', '/api/v1/webhooks', {
        key,
        json: { url: `${receiver.url}/x`, events: ['link.created', 'link.deleted'] },
      });
      assert.equal(made.status, 201, made.text);
      const w = made.body.data;
      assert.match(w.secret, /^whsec_[\w-]{43}$/);
      assert.deepEqual([w.url, w.events, w.enabled], [`${receiver.url}/x`, ['link.created', 'link.deleted'], true]);
      const listed = await h().request('GET', '/api/v1/webhooks', { key });
      assert.equal(listed.status, 200);
      assert.deepEqual(
        listed.body.data.map((x: { id: number }) => x.id),
        [w.id],
      );
      assert.equal(listed.body.data[0].secret, undefined);
      const read = await h().request('GET', `/api/v1/webhooks/${w.id}`, { key });
      assert.equal(read.body.data.secret, undefined);
      assert.equal(read.text.includes(w.secret), false);
      const other = await h().account();
      assert.equal((await h().request('GET', `/api/v1/webhooks/${w.id}`, { key: other.key })).status, 404);
      assert.equal((await h().request('DELETE', `/api/v1/webhooks/${w.id}`, { key: other.key })).status, 404);
      assert.deepEqual((await h().request('DELETE', `/api/v1/webhooks/${w.id}`, { key })).body, {
        id: w.id,
        object: 'webhook',
        deleted: true,
        status: 200,
      });
      assert.equal((await h().request('GET', `/api/v1/webhooks/${w.id}`, { key })).status, 404);
    });

    test('bad input answers 422 naming the field', async () => {
      const { key } = await h().account();
      const noUrl = await h().request('POST', '/api/v1/webhooks', { key, json: { events: ['link.created'] } });
      assert.equal(noUrl.status, 422);
      assert.ok(noUrl.body.message.url, noUrl.text);
      const badUrl = await h().request('POST', '/api/v1/webhooks', {
        key,
        json: { url: 'ftp://example.com/x', events: ['link.created'] },
      });
      assert.equal(badUrl.status, 422);
      assert.ok(badUrl.body.message.url, badUrl.text);
      const badEvent = await h().request('POST', '/api/v1/webhooks', {
        key,
        json: { url: 'https://example.com/x', events: ['link.exploded'] },
      });
      assert.equal(badEvent.status, 422);
      assert.ok(
        Object.keys(badEvent.body.message).some((f) => f.startsWith('events')),
        badEvent.text,
      );
      const noEvents = await h().request('POST', '/api/v1/webhooks', {
        key,
        json: { url: 'https://example.com/x', events: [] },
      });
      assert.equal(noEvents.status, 422);
    });

    test('a delivery is signed (Stripe scheme) and carries its idempotency id; another account’s links are not delivered', async () => {
      const { key } = await h().account();
      const w = await hook(h(), key, ['link.created']);
      const stranger = await h().account();
      await link(h(), stranger.key, 'https://example.com/not-yours');
      const mine = await link(h(), key, 'https://example.com/mine');
      await eventually('the delivery', () => receiver.on(w.path).length === 1);
      const got = receiver.on(w.path)[0]!;
      assert.ok(
        verifySignature(w.secret, got.body, String(got.headers['linkpix-signature']), Math.floor(clock.now() / 1000)),
      );
      assert.equal(
        verifySignature(
          w.secret,
          `${got.body} `,
          String(got.headers['linkpix-signature']),
          Math.floor(clock.now() / 1000),
        ),
        false,
      );
      assert.equal(got.headers['linkpix-delivery'], got.json.id);
      assert.equal(got.headers['linkpix-event'], 'link.created');
      assert.equal(got.json.type, 'link.created');
      assert.deepEqual([got.json.data.link.id, got.json.data.link.url], [mine.id, 'https://example.com/mine']);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(receiver.on(w.path).length, 1);
    });

    test('a 500 is retried with the same id and body until it succeeds; one link’s events arrive in order', async () => {
      const { key } = await h().account();
      const w = await hook(h(), key, ['link.created', 'link.updated', 'link.deleted']);
      receiver.answer(w.path, 500);
      const l = await link(h(), key);
      await eventually('the first attempt', () => receiver.on(w.path).length === 1);
      assert.equal((await h().request('PATCH', `/api/v1/links/${l.id}`, { key, json: { title: 'one' } })).status, 200);
      assert.equal((await h().request('PATCH', `/api/v1/links/${l.id}`, { key, json: { title: 'two' } })).status, 200);
      assert.equal((await h().request('DELETE', `/api/v1/links/${l.id}`, { key })).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(receiver.on(w.path).length, 1, 'later events of the link wait for the first');
      offset += 2000; // the first retry is due a second later
      await eventually('every delivery', () => receiver.on(w.path).length === 5);
      const got = receiver.on(w.path);
      assert.deepEqual(
        got.map((r) => [r.json.type, r.status]),
        [
          ['link.created', 500],
          ['link.created', 200],
          ['link.updated', 200],
          ['link.updated', 200],
          ['link.deleted', 200],
        ],
      );
      assert.equal(got[0]!.json.id, got[1]!.json.id);
      assert.equal(got[0]!.body, got[1]!.body);
      assert.deepEqual(
        got.slice(2, 4).map((r) => r.json.data.link.title),
        ['one', 'two'],
      );
      assert.equal(got[4]!.json.data.link.id, l.id);
    });

    test('link.clicked carries the clicks of a second in one request', async () => {
      const { key } = await h().account();
      const w = await hook(h(), key, ['link.clicked']);
      const l = await link(h(), key);
      for (let i = 0; i < 3; i++)
        assert.equal((await fetch(`${h().baseUrl}/${l.alias}`, { redirect: 'manual' })).status, 302);
      await eventually(
        'the clicks',
        () => receiver.on(w.path).reduce((n, r) => n + r.json.data.clicks.length, 0) === 3,
      );
      const got = receiver.on(w.path);
      assert.ok(got.length <= 2, `${got.length} requests for 3 clicks made together`);
      assert.ok(
        got.every(
          (r) =>
            r.json.type === 'link.clicked' && r.json.data.clicks.every((c: { link_id: number }) => c.link_id === l.id),
        ),
      );
    });

    test('a webhook failing for 24 h is disabled and the account told once, on its next API answer', async () => {
      const { key } = await h().account();
      const w = await hook(h(), key, ['link.created']);
      receiver.answerAlways(w.path, 500);
      await link(h(), key);
      await eventually('the first attempt', () => receiver.on(w.path).length === 1);
      // The receiver sees the request before the dispatcher records its failure: the clock moves
      // only once the failure is stamped, or the day would count from the moved time.
      await eventually(
        'the failure recorded',
        async () => (await h().request('GET', `/api/v1/webhooks/${w.id}`, { key })).body.data.failing_since !== null,
      );
      offset += 25 * 3_600_000;
      await eventually('the last attempt', () => receiver.on(w.path).length === 2);
      let told: string | null = null;
      await eventually('the notice', async () => {
        told = (await h().request('GET', '/api/v1/account', { key })).headers.get('linkpix-webhooks-disabled');
        return told !== null;
      });
      assert.equal(told, String(w.id));
      assert.equal(
        (await h().request('GET', '/api/v1/account', { key })).headers.get('linkpix-webhooks-disabled'),
        null,
      );
      const read = await h().request('GET', `/api/v1/webhooks/${w.id}`, { key });
      assert.equal(read.body.data.enabled, false);
      await link(h(), key);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(receiver.on(w.path).length, 2, 'a disabled webhook gets nothing more');
    });
  },
  { env: { OUTBOUND_ALLOW_PRIVATE: 'true' }, overrides: { clock, tuning: { WEBHOOK_POLL_MS: 50 } } },
);

for (const engine of ENGINES) {
  describe(`webhooks without OUTBOUND_ALLOW_PRIVATE [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(engine.name);
    });
    after(() => h.close());

    test('loopback, private and link-local targets are refused', async () => {
      const { key } = await h.account();
      for (const url of [
        `${receiver.url}/p`,
        'http://10.1.2.3/p',
        'http://169.254.169.254/latest',
        'http://[::1]:8080/p',
      ]) {
        const res = await h.request('POST', '/api/v1/webhooks', { key, json: { url, events: ['link.created'] } });
        assert.equal(res.status, 422, url);
        assert.ok(res.body.message.url, res.text);
      }
      assert.deepEqual((await h.request('GET', '/api/v1/webhooks', { key })).body.data, []);
    });
  });
}

for (const engine of ENGINES) {
  describe(`a stop and a receiver that never answers [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    test(
      'the server stops without waiting for the delivery in flight (its timeout is two minutes)',
      { timeout: 30_000 },
      async () => {
        let arrived = 0;
        const silent = createServer(() => void arrived++);
        await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
        const h = await startHarness(engine.name, {
          env: { OUTBOUND_ALLOW_PRIVATE: 'true' },
          overrides: { tuning: { WEBHOOK_POLL_MS: 50, WEBHOOK_TIMEOUT_MS: 120_000 } },
        });
        try {
          const { key } = await h.account();
          const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
          const made = await h.request('POST', '/api/v1/webhooks', { key, json: { url, events: ['link.created'] } });
          assert.equal(made.status, 201, made.text);
          await link(h, key);
          await eventually('the delivery reaches the receiver', () => arrived === 1);
        } finally {
          await h.close();
          silent.closeAllConnections();
          await new Promise((resolve) => silent.close(resolve));
        }
      },
    );
  });
}
