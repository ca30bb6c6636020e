import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WEBHOOK_EVENTS } from '../../core/webhooks/webhook.ts';
import { envelopeOf } from '../../core/webhooks/webhook-events.ts';
import { sampleDelivery } from '../../core/webhooks/webhook-samples.ts';
import { slackMessage } from './slack-message.ts';
import { renderDelivery } from './delivery-renderer.ts';
import type { WebhookSubscriber } from '../../core/webhooks/webhook.ts';

const AT = Date.UTC(2026, 11, 3, 12, 0);
const link = { id: 7, alias: 'abc', url: 'https://example.com/a?x=1&y=<2>', short_url: 'https://lp.example/abc' };

test('link.created: one line with the alias and destination, a context of workspace, short link and time', () => {
  const message = slackMessage(envelopeOf('d-1', 'link.created', AT, { link }), 'Acme & Co');
  assert.equal(message.text, '🔗 Link *abc* created → https://example.com/a?x=1&amp;y=&lt;2&gt;');
  assert.deepEqual(message.blocks[0], { type: 'section', text: { type: 'mrkdwn', text: message.text } });
  assert.deepEqual(message.blocks[1], {
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: `Acme &amp; Co · <https://lp.example/abc|https://lp.example/abc> · <!date^${AT / 1000}^{date_short_pretty} {time}|2026-12-03T12:00:00.000Z>`,
      },
    ],
  });
});

test('broken and recovered name the answer, or how the request failed', () => {
  const broken = { ...link, health: { status: 'broken', code: 404, reason: 'status' } };
  assert.equal(
    slackMessage(envelopeOf('d', 'link.broken', AT, { link: broken }), 'W').text,
    '⚠️ Link *abc* is broken (404)',
  );
  const timeout = { ...link, health: { status: 'broken', code: null, reason: 'timeout' } };
  assert.equal(
    slackMessage(envelopeOf('d', 'link.broken', AT, { link: timeout }), 'W').text,
    '⚠️ Link *abc* is broken (timeout)',
  );
  const ok = { ...link, health: { status: 'ok', code: 200, reason: null } };
  assert.equal(
    slackMessage(envelopeOf('d', 'link.recovered', AT, { link: ok }), 'W').text,
    '✅ Link *abc* works again (200)',
  );
});

test('deleted, expired and clicked read as one line each; a deleted link has no short link in the context', () => {
  const deleted = slackMessage(envelopeOf('d', 'link.deleted', AT, { link: { id: 7, alias: 'abc' } }), 'W');
  assert.equal(deleted.text, '🗑️ Link *abc* deleted');
  assert.ok(!(deleted.blocks[1] as { elements: Array<{ text: string }> }).elements[0]!.text.includes('<http'));
  assert.equal(slackMessage(envelopeOf('d', 'link.expired', AT, { link }), 'W').text, '⌛ Link *abc* expired');
  assert.equal(
    slackMessage(envelopeOf('d', 'link.clicked', AT, { clicks: [{}, {}] }), 'W').text,
    '👆 2 clicks on your links',
  );
  assert.equal(
    slackMessage(envelopeOf('d', 'link.clicked', AT, { clicks: [{}] }), 'W').text,
    '👆 1 click on your links',
  );
});

test('every event has a readable line, from its real payload shape', () => {
  const present = () => ({ ...link, health: { status: 'broken', code: 404, reason: 'status' } });
  for (const event of WEBHOOK_EVENTS) {
    const message = slackMessage(sampleDelivery(event, present), 'W');
    assert.ok(message.text.length > 0 && !message.text.includes('undefined') && !message.text.includes('*?*'), event);
    assert.equal(message.blocks.length, 2);
  }
});

test('a json webhook gets the envelope itself, a slack one the message', () => {
  const envelope = envelopeOf('d-1', 'link.created', AT, { link });
  const hook = (format: 'json' | 'slack') => ({ format, workspace: 'W' }) as WebhookSubscriber;
  assert.deepEqual(JSON.parse(renderDelivery(envelope, hook('json'))), envelope);
  const slack = JSON.parse(renderDelivery(envelope, hook('slack'))) as Record<string, unknown>;
  assert.deepEqual(Object.keys(slack), ['text', 'blocks']);
});
