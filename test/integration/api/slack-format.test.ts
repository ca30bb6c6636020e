// Webhook formats over the API (docs/api.md §14): a slack-format webhook receives a Slack message
// on a loopback receiver, PATCH switches the format for the next delivery, the sample endpoint
// answers the shape a json delivery has; who may; both engines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { verifySignature } from '../../../src/core/webhooks/signature.ts';
import { WEBHOOK_EVENTS } from '../../../src/core/webhooks/webhook.ts';
import { addMember, makeKey, makeWorkspace, type Person } from './workspaces-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const receiver = new WebhookReceiver();
before(() => receiver.start());
after(() => receiver.close());
let paths = 0;

async function hook(h: Harness, key: string, body: Record<string, unknown>): Promise<Json> {
  const path = `/slack/${++paths}`;
  const res = await h.request('POST', '/api/v1/webhooks', {
    key,
    json: { url: receiver.url + path, events: ['link.created'], ...body },
  });
  assert.equal(res.status, 201, res.text);
  return { ...res.body.data, path };
}

async function makeLink(h: Harness, key: string, url: string): Promise<Json> {
  const res = await h.request('POST', '/api/v1/links', { key, json: { url } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const keysOf = (o: Json) => Object.keys(o).sort();

onEachEngine(
  'API webhook formats and samples',
  (h) => {
    test('a slack webhook receives text and blocks for link.created, still signed', async () => {
      const person = await h().account();
      const w = await hook(h(), person.key, { format: 'slack' });
      assert.equal(w.format, 'slack');
      const link = await makeLink(h(), person.key, 'https://example.com/slack-a');
      await eventually('the slack delivery', () => receiver.on(w.path).length === 1);
      const got = receiver.on(w.path)[0]!;
      assert.deepEqual(Object.keys(got.json), ['text', 'blocks']);
      const message = got.json as unknown as Json;
      assert.equal(message.text, `🔗 Link *${link.alias}* created → https://example.com/slack-a`);
      assert.deepEqual(
        message.blocks.map((b: Json) => b.type),
        ['section', 'context'],
      );
      assert.equal(message.blocks[0].text.type, 'mrkdwn');
      assert.ok(message.blocks[1].elements[0].text.includes(link.short_url), message.blocks[1].elements[0].text);
      assert.equal(got.headers['linkpix-event'], 'link.created');
      assert.ok(
        verifySignature(w.secret, got.body, String(got.headers['linkpix-signature']), Math.floor(Date.now() / 1000)),
      );
    });

    test('PATCH switches json ↔ slack and the next delivery follows; the other fields stay', async () => {
      const person = await h().account();
      const w = await hook(h(), person.key, {});
      assert.equal(w.format, 'json');
      await makeLink(h(), person.key, 'https://example.com/p1');
      await eventually('the json delivery', () => receiver.on(w.path).length === 1);
      assert.equal(receiver.on(w.path)[0]!.json.type, 'link.created');

      const toSlack = await h().request('PATCH', `/api/v1/webhooks/${w.id}`, {
        key: person.key,
        json: { format: 'slack' },
      });
      assert.equal(toSlack.status, 200, toSlack.text);
      assert.deepEqual(
        [toSlack.body.data.format, toSlack.body.data.url, toSlack.body.data.events],
        ['slack', w.url, w.events],
      );
      await makeLink(h(), person.key, 'https://example.com/p2');
      await eventually('the slack delivery', () => receiver.on(w.path).length === 2);
      assert.ok(String((receiver.on(w.path)[1]!.json as unknown as Json).text).startsWith('🔗 Link'));

      const back = await h().request('PATCH', `/api/v1/webhooks/${w.id}`, {
        key: person.key,
        form: { format: 'json', 'events[]': ['link.created', 'link.deleted'] },
      });
      assert.equal(back.status, 200, back.text);
      assert.deepEqual([back.body.data.format, back.body.data.events], ['json', ['link.created', 'link.deleted']]);
      await makeLink(h(), person.key, 'https://example.com/p3');
      await eventually('the json delivery again', () => receiver.on(w.path).length === 3);
      assert.equal(receiver.on(w.path)[2]!.json.data.link.url, 'https://example.com/p3');
      assert.equal(
        (await h().request('GET', `/api/v1/webhooks/${w.id}`, { key: person.key })).body.data.format,
        'json',
      );
    });

    test('PATCH enabled: false stops deliveries, true resumes them', async () => {
      const person = await h().account();
      const w = await hook(h(), person.key, {});
      const off = await h().request('PATCH', `/api/v1/webhooks/${w.id}`, { key: person.key, json: { enabled: false } });
      assert.equal(off.status, 200, off.text);
      assert.equal(off.body.data.enabled, false);
      await makeLink(h(), person.key, 'https://example.com/off');
      const account = await h().request('GET', '/api/v1/account', { key: person.key });
      assert.equal(account.headers.get('linkpix-webhooks-disabled'), null, 'turned off by its author: no notice');
      const on = await h().request('PATCH', `/api/v1/webhooks/${w.id}`, { key: person.key, json: { enabled: true } });
      assert.deepEqual(
        [on.body.data.enabled, on.body.data.disabled_at, on.body.data.failing_since],
        [true, null, null],
      );
      await makeLink(h(), person.key, 'https://example.com/on');
      await eventually('the delivery after resuming', () => receiver.on(w.path).length === 1);
      assert.equal(receiver.on(w.path)[0]!.json.data.link.url, 'https://example.com/on');
    });

    test('PATCH answers 422 naming each bad field and changes nothing; 404 for another account’s', async () => {
      const person = await h().account();
      const w = await hook(h(), person.key, {});
      const patch = (json: unknown, key = person.key) =>
        h().request('PATCH', `/api/v1/webhooks/${w.id}`, { key, json });
      const bad = await patch({ format: 'xml', url: 'ftp://example.com/x', events: ['link.exploded'] });
      assert.equal(bad.status, 422, bad.text);
      assert.ok(bad.body.message.format, bad.text);
      const badUrl = await patch({ url: 'ftp://example.com/x', format: 'slack' });
      assert.equal(badUrl.status, 422, badUrl.text);
      assert.ok(badUrl.body.message.url, badUrl.text);
      const noEvents = await patch({ events: [] });
      assert.equal(noEvents.status, 422, noEvents.text);
      assert.ok(
        Object.keys(noEvents.body.message).some((f) => f.startsWith('events')),
        noEvents.text,
      );
      const badEnabled = await patch({ enabled: 'maybe' });
      assert.equal(badEnabled.status, 422, badEnabled.text);
      assert.ok(badEnabled.body.message.enabled, badEnabled.text);
      const read = await h().request('GET', `/api/v1/webhooks/${w.id}`, { key: person.key });
      assert.deepEqual([read.body.data.format, read.body.data.url], ['json', w.url], 'nothing half-written');
      const stranger = await h().account();
      assert.equal((await patch({ format: 'slack' }, stranger.key)).status, 404);
      const created = await h().request('POST', '/api/v1/webhooks', {
        key: person.key,
        json: { url: `${receiver.url}/x`, events: ['link.created'], format: 'teams' },
      });
      assert.equal(created.status, 422, created.text);
      assert.ok(created.body.message.format, created.text);
    });

    test('the sample of an event has the keys of a real delivery; every event has one; an unknown one is a 422', async () => {
      const person = await h().account();
      const w = await hook(h(), person.key, {});
      await makeLink(h(), person.key, 'https://example.com/real');
      await eventually('the delivery', () => receiver.on(w.path).length === 1);
      const real = receiver.on(w.path)[0]!.json;

      const sample = await h().request('GET', '/api/v1/webhooks/sample?event=link.created', { key: person.key });
      assert.equal(sample.status, 200, sample.text);
      assert.equal(sample.body.status, 200);
      assert.equal(sample.body.data.type, 'link.created');
      assert.deepEqual(keysOf(sample.body.data), keysOf(real));
      assert.deepEqual(keysOf(sample.body.data.data), keysOf(real.data));
      assert.deepEqual(keysOf(sample.body.data.data.link), keysOf(real.data.link));
      assert.deepEqual(keysOf(sample.body.data.data.link.health), keysOf(real.data.link.health));

      const deleted = await h().request('GET', '/api/v1/webhooks/sample?event=link.deleted', { key: person.key });
      assert.deepEqual(keysOf(deleted.body.data.data.link), ['alias', 'id']);
      const clicked = await h().request('GET', '/api/v1/webhooks/sample?event=link.clicked', { key: person.key });
      assert.deepEqual(keysOf(clicked.body.data.data.clicks[0]), [
        'at',
        'bot',
        'browser',
        'country',
        'device',
        'link_id',
        'platform',
        'referrer',
      ]);

      const all = await h().request('GET', '/api/v1/webhooks/sample', { key: person.key });
      assert.equal(all.status, 200, all.text);
      assert.deepEqual(
        all.body.data.map((d: Json) => d.type),
        [...WEBHOOK_EVENTS],
      );
      const unknown = await h().request('GET', '/api/v1/webhooks/sample?event=link.exploded', { key: person.key });
      assert.equal(unknown.status, 422, unknown.text);
      assert.ok(unknown.body.message.event, unknown.text);
    });

    test('viewers may neither change webhooks nor read samples; a key without webhooks scopes is refused', async () => {
      const owner: Person = await h().account();
      const team = await makeWorkspace(h(), owner);
      const ownerKey = await makeKey(h(), owner, team.id);
      const w = await hook(h(), ownerKey, {});
      const viewer: Person = await h().account();
      await addMember(h(), owner, team.id, viewer, 'viewer');
      const viewerKey = await makeKey(h(), viewer, team.id);
      const patch = (key: string) =>
        h().request('PATCH', `/api/v1/webhooks/${w.id}`, { key, json: { format: 'slack' } });
      assert.equal((await patch(viewerKey)).status, 403);
      assert.equal((await h().request('GET', '/api/v1/webhooks/sample', { key: viewerKey })).status, 403);
      const readOnly = await makeKey(h(), owner, team.id, ['webhooks:read']);
      assert.equal((await patch(readOnly)).status, 403);
      assert.equal((await h().request('GET', '/api/v1/webhooks/sample', { key: readOnly })).status, 200);
      const linksOnly = await makeKey(h(), owner, team.id, ['links:read']);
      assert.equal((await h().request('GET', '/api/v1/webhooks/sample', { key: linksOnly })).status, 403);
      assert.equal((await patch(ownerKey)).status, 200);
    });
  },
  { env: { OUTBOUND_ALLOW_PRIVATE: 'true' }, overrides: { tuning: { WEBHOOK_POLL_MS: 50 } } },
);
