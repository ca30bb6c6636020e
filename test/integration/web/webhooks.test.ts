// /webhooks in the web app: made with a format (JSON or Slack) and its secret shown once, changed
// (format, events, on/off) as the API's PATCH, refused forms kept as typed, CSRF, tenancy, roles.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, assertSeeOther, fieldError, postWithoutCsrf, signedInWithKey } from '../../support/web-resources.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A form as a browser sends it: repeated names, `events[]` for the boxes, the hidden "false" before a ticked box. */
async function browserPost(client: WebClient, path: string, pairs: Array<[string, string]>): Promise<Json> {
  const csrf = await client.csrf(path);
  const body = new URLSearchParams([...pairs, ['_csrf', csrf]]).toString();
  return client.send('POST', path, body, { 'content-type': 'application/x-www-form-urlencoded' });
}

onEachEngine(
  'web: webhooks',
  (h) => {
    let me: WebClient;
    let key: string;
    let otherKey: string;
    const api = apiAs(h, () => key);
    const hooks = async (k = key): Promise<Json[]> => (await api('GET', '/api/v1/webhooks', undefined, k)).body.data;

    before(async () => {
      ({ me, key, otherKey } = await signedInWithKey(h()));
    });

    test('a webhook is made with the Slack format and its secret shown once; the list shows its format', async () => {
      const form = await me.get('/webhooks/new');
      assert.equal(form.status, 200);
      assert.match(
        form.text,
        /<select id="f-format" name="format"[^>]*><option value="json" selected>JSON<\/option><option value="slack">Slack message<\/option>/,
      );
      const made = await browserPost(me, '/webhooks/new', [
        ['url', 'https://hooks.slack.com/services/T0/B0/x'],
        ['events[]', 'link.created'],
        ['events[]', 'link.broken'],
        ['format', 'slack'],
      ]);
      assert.equal(made.status, 201, made.text.slice(0, 500));
      const secret = /<code class="secret mono">(whsec_[\w-]+)<\/code>/.exec(made.text)?.[1];
      assert.ok(secret, 'the secret is shown');
      const [stored] = await hooks();
      assert.deepEqual(
        [stored.url, stored.events, stored.format],
        ['https://hooks.slack.com/services/T0/B0/x', ['link.created', 'link.broken'], 'slack'],
      );
      const list = await me.get('/webhooks');
      assert.match(list.text, /<td>Slack message<\/td>/);
      assert.equal(list.text.includes(secret), false, 'never shown again');
      assert.match(list.text, /<a href="\/webhooks">Webhooks<\/a>|href="\/webhooks" aria-current="page">Webhooks/);
    });

    test('the edit form shows the stored format and switches it; unticking turns it off', async () => {
      const w = (
        await api('POST', '/api/v1/webhooks', { url: 'https://example.com/edit-me', events: ['link.created'] })
      ).body.data;
      const edit = await me.get(`/webhooks/${w.id}/edit`);
      assert.match(edit.text, /<option value="json" selected>JSON<\/option>/);
      const saved = await browserPost(me, `/webhooks/${w.id}/edit`, [
        ['url', 'https://example.com/edit-me'],
        ['events[]', 'link.created'],
        ['events[]', 'link.deleted'],
        ['format', 'slack'],
        ['enabled', 'false'],
        ['enabled', 'true'],
      ]);
      assertSeeOther(saved, '/webhooks');
      let read = (await api('GET', `/api/v1/webhooks/${w.id}`)).body.data;
      assert.deepEqual([read.format, read.events, read.enabled], ['slack', ['link.created', 'link.deleted'], true]);
      assert.match(
        (await me.get(`/webhooks/${w.id}/edit`)).text,
        /<option value="slack" selected>Slack message<\/option>/,
      );
      const off = await browserPost(me, `/webhooks/${w.id}/edit`, [
        ['url', 'https://example.com/edit-me'],
        ['events[]', 'link.created'],
        ['format', 'json'],
        ['enabled', 'false'],
      ]);
      assertSeeOther(off, '/webhooks');
      read = (await api('GET', `/api/v1/webhooks/${w.id}`)).body.data;
      assert.deepEqual([read.format, read.enabled], ['json', false]);
    });

    test('a bad form is a 422 naming the field, kept as typed, nothing written; CSRF is checked', async () => {
      const before = (await hooks()).length;
      const bad = await browserPost(me, '/webhooks/new', [
        ['url', 'ftp://example.com/typed-here'],
        ['format', 'teams'],
      ]);
      assert.equal(bad.status, 422);
      assert.ok(fieldError(bad.text, 'url'), 'url named');
      assert.ok(fieldError(bad.text, 'events'), 'events named');
      assert.ok(fieldError(bad.text, 'format'), 'format named');
      assert.match(bad.text, /value="ftp:\/\/example.com\/typed-here"/);
      assert.equal((await hooks()).length, before);
      const noCsrf = await postWithoutCsrf(me, '/webhooks/new', {
        url: 'https://example.com/x',
        'events[]': 'link.created',
      });
      assert.equal(noCsrf.status, 403);
      assert.equal((await hooks()).length, before);
    });

    test('another workspace’s webhook is not found; deleting asks, then deletes', async () => {
      const theirs = (
        await api('POST', '/api/v1/webhooks', { url: 'https://example.com/theirs', events: ['link.created'] }, otherKey)
      ).body.data;
      assert.equal((await me.get(`/webhooks/${theirs.id}/edit`)).status, 404);
      const w = (await api('POST', '/api/v1/webhooks', { url: 'https://example.com/gone', events: ['link.created'] }))
        .body.data;
      assert.match((await me.get(`/webhooks/${w.id}/delete`)).text, /Delete this webhook\?/);
      assertSeeOther(await me.post(`/webhooks/${w.id}/delete`, {}, { from: `/webhooks/${w.id}/delete` }), '/webhooks');
      assert.equal((await api('GET', `/api/v1/webhooks/${w.id}`)).status, 404);
    });
  },
  { env: { OUTBOUND_ALLOW_PRIVATE: 'true' } },
);
