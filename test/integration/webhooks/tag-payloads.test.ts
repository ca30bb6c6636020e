// A link's webhook payload is its API record (docs/api.md §3, §14): tags included, by name.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';

const receiver = new WebhookReceiver();
before(() => receiver.start());
after(() => receiver.close());
let paths = 0;

onEachEngine(
  'webhooks: tags in the link payload',
  (h) => {
    test('link.created and link.updated carry the tags the change left', async () => {
      const { key } = await h().account();
      const path = `/tags/${++paths}`;
      const made = await h().request('POST', '/api/v1/webhooks', {
        key,
        json: { url: receiver.url + path, events: ['link.created', 'link.updated'] },
      });
      assert.equal(made.status, 201, made.text);
      const link = await h().request('POST', '/api/v1/links', {
        key,
        json: { url: 'https://example.com/', tags: ['Launch'] },
      });
      assert.equal(link.status, 201, link.text);
      await h().request('PATCH', `/api/v1/links/${link.body.data.id}`, { key, json: { tags: ['Launch', 'Q3'] } });
      await eventually('both deliveries', () => receiver.on(path).length === 2);
      assert.deepEqual(
        receiver.on(path).map((r) => [r.json.type, r.json.data.link.tags]),
        [
          ['link.created', ['Launch']],
          ['link.updated', ['Launch', 'Q3']],
        ],
      );
    });
  },
  { env: { OUTBOUND_ALLOW_PRIVATE: 'true' }, overrides: { tuning: { WEBHOOK_POLL_MS: 50 } } },
);
