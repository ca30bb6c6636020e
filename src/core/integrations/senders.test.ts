import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { Delivery } from './delivery.ts';
import { fromMinorUnits } from './minor-units.ts';
import { shopifySender } from './shopify-sender.ts';
import { stripeSender } from './stripe-sender.ts';

const delivery = (body: string, headers: Record<string, string>): Delivery => ({
  raw: Buffer.from(body),
  header: (name) => headers[name],
});

const NOW = 1_800_000_000_000;
const stripeHeader = (body: string, secret: string, at = NOW) =>
  `t=${at / 1000},v1=${createHmac('sha256', secret)
    .update(`${at / 1000}.${body}`)
    .digest('hex')}`;

test('Stripe: the v1 signature over `{t}.{body}` within five minutes; any of several v1 may match', () => {
  const body = '{"id":"evt_1"}';
  const good = stripeHeader(body, 'whsec_a');
  assert.ok(stripeSender.verify(delivery(body, { 'stripe-signature': good }), 'whsec_a', NOW));
  assert.ok(
    stripeSender.verify(delivery(body, { 'stripe-signature': `${good},v1=${'0'.repeat(64)}` }), 'whsec_a', NOW),
  );
  assert.ok(!stripeSender.verify(delivery(body, { 'stripe-signature': good }), 'whsec_b', NOW), 'another secret');
  assert.ok(!stripeSender.verify(delivery(`${body} `, { 'stripe-signature': good }), 'whsec_a', NOW), 'another body');
  assert.ok(!stripeSender.verify(delivery(body, { 'stripe-signature': good }), 'whsec_a', NOW + 301_000), 'too old');
  assert.ok(!stripeSender.verify(delivery(body, {}), 'whsec_a', NOW), 'none');
  assert.ok(!stripeSender.verify(delivery(body, { 'stripe-signature': 'v1=abc' }), 'whsec_a', NOW), 'no time');
});

test('Stripe: a session paid or an intent succeeded is a sale; its click id from client_reference_id or metadata', () => {
  const event = (type: string, object: unknown) =>
    delivery(JSON.stringify({ id: 'evt_9', type, data: { object } }), {});
  assert.deepEqual(
    stripeSender.read(
      event('checkout.session.completed', { client_reference_id: 'cid', amount_total: 1999, currency: 'usd' }),
    ),
    { eventId: 'evt_9', sale: { clickId: 'cid', value: 19.99, currency: 'USD' } },
  );
  assert.deepEqual(
    stripeSender.read(
      event('payment_intent.succeeded', { metadata: { lpx_cid: 'm' }, amount_received: 500, currency: 'krw' }),
    ),
    { eventId: 'evt_9', sale: { clickId: 'm', value: 500, currency: 'KRW' } },
  );
  assert.deepEqual(stripeSender.read(event('invoice.paid', {})), { eventId: 'evt_9', sale: null });
  assert.equal(stripeSender.read(delivery('not json', {})), null);
  assert.equal(stripeSender.read(delivery('[1]', {})), null);
});

test('Shopify: the base64 HMAC of the body; orders/create with the click id from a note attribute or the landing site', () => {
  const body = JSON.stringify({ id: 7, total_price: '12.50', currency: 'eur', landing_site: '/p?a=1&lpx_cid=land' });
  const hmac = createHmac('sha256', 'shpss').update(body).digest('base64');
  const headers = { 'x-shopify-hmac-sha256': hmac, 'x-shopify-topic': 'orders/create' };
  assert.ok(shopifySender.verify(delivery(body, headers), 'shpss', NOW));
  assert.ok(!shopifySender.verify(delivery(body, headers), 'other', NOW));
  assert.ok(!shopifySender.verify(delivery(body, { 'x-shopify-hmac-sha256': 'short' }), 'shpss', NOW));
  assert.deepEqual(shopifySender.read(delivery(body, headers)), {
    eventId: 'order:7',
    sale: { clickId: 'land', value: '12.50', currency: 'EUR' },
  });
  const noted = JSON.stringify({
    id: 8,
    total_price: '1.00',
    currency: 'USD',
    note_attributes: [{ name: 'lpx_cid', value: 'note' }],
  });
  assert.deepEqual(
    shopifySender.read(delivery(noted, { ...headers, 'x-shopify-webhook-id': 'w1' }))?.sale?.clickId,
    'note',
  );
  assert.equal(shopifySender.read(delivery(noted, { ...headers, 'x-shopify-webhook-id': 'w1' }))?.eventId, 'w1');
  assert.deepEqual(shopifySender.read(delivery(noted, { 'x-shopify-topic': 'orders/paid' }))?.sale, null);
});

test('minor units: two places by default, none for zero-decimal currencies, three for the three-decimal ones', () => {
  assert.equal(fromMinorUnits(1999, 'usd'), 19.99);
  assert.equal(fromMinorUnits(1999, 'JPY'), 1999);
  assert.equal(fromMinorUnits(5124, 'KWD'), 5.124);
  assert.equal(fromMinorUnits(1, 'EUR'), 0.01);
});
