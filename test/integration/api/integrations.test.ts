// Integrations (docs/api.md, Integrations; docs/design/integrations.md): Stripe and Shopify post
// sales to an endpoint per integration; a good signature records a `sale` against the visit's
// click id once per event, through the conversions' own service. Stripe's payloads are signed by
// the `stripe` package's own test helper, Shopify's with its documented HMAC; both engines.
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { makeLink, redirectsTo } from '../redirect/redirect-support.ts';
import { addMember, makeKey, makeWorkspace } from './workspaces-support.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const STRIPE_SECRET = 'whsec_test_0123456789abcdefghijklmnopqrstuv';
const SHOPIFY_SECRET = 'shpss_0123456789abcdef0123456789abcdef';

async function clickId(h: Harness, key: string): Promise<{ cid: string; linkId: number }> {
  const link = await makeLink(h, key, { url: 'https://shop.example/p', track_conversions: 1 });
  const cid = new URL(await redirectsTo(h, `/${link.alias}`)).searchParams.get('lpx_cid');
  assert.ok(cid);
  return { cid, linkId: link.id };
}

async function integrate(h: Harness, key: string, type: string, secret: string): Promise<Json> {
  const res = await h.request('POST', '/api/v1/integrations', { key, json: { type, secret } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** The endpoint's path: the answer's URL under APP_URL. */
const pathOf = (integration: Json) => new URL(integration.endpoint_url).pathname;

function stripeEvent(id: string, type: string, object: Record<string, unknown>): string {
  return JSON.stringify({ id, object: 'event', type, data: { object } });
}

function postStripe(h: Harness, integration: Json, payload: string, signature?: string) {
  const header = signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET });
  return h.request('POST', pathOf(integration), {
    body: payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
  });
}

function postShopify(
  h: Harness,
  integration: Json,
  order: Record<string, unknown>,
  o: { id: string; hmac?: string; topic?: string },
) {
  const body = JSON.stringify(order);
  const hmac = o.hmac ?? createHmac('sha256', SHOPIFY_SECRET).update(body, 'utf8').digest('base64');
  return h.request('POST', pathOf(integration), {
    body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': o.topic ?? 'orders/create',
      'x-shopify-hmac-sha256': hmac,
      'x-shopify-webhook-id': o.id,
    },
  });
}

async function salesOf(h: Harness, linkId: number) {
  return h.server.container.storage.db
    .selectFrom('conversions')
    .select(['name', 'value', 'currency', 'click_id'])
    .where('link_id', '=', linkId)
    .execute();
}

onEachEngine('api: integrations', (h) => {
  test('Stripe: a signed checkout.session.completed records a sale once; the amount in minor units, the currency kept', async () => {
    const { key } = await h().account();
    const integration = await integrate(h(), key, 'stripe', STRIPE_SECRET);
    const { cid, linkId } = await clickId(h(), key);
    const payload = stripeEvent('evt_1', 'checkout.session.completed', {
      object: 'checkout.session',
      client_reference_id: cid,
      amount_total: 4990,
      currency: 'eur',
    });
    const res = await postStripe(h(), integration, payload);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { received: true, result: 'recorded', status: 200 });
    assert.deepEqual(
      (await salesOf(h(), linkId)).map((r) => ({ ...r, value: Number(r.value) })),
      [{ name: 'sale', value: 49.9, currency: 'EUR', click_id: cid }],
    );

    // The same event again, and at once several times: nothing more.
    const again = await Promise.all([1, 2, 3].map(() => postStripe(h(), integration, payload)));
    assert.deepEqual(
      again.map((r) => [r.status, r.body.result]),
      [
        [200, 'seen'],
        [200, 'seen'],
        [200, 'seen'],
      ],
    );
    // Another purchase from the same click: the conversion stays once per click and name.
    const second = stripeEvent('evt_2', 'payment_intent.succeeded', {
      object: 'payment_intent',
      amount_received: 1000,
      currency: 'jpy',
      metadata: { lpx_cid: cid },
    });
    const secondAnswer = await postStripe(h(), integration, second);
    assert.deepEqual([secondAnswer.status, secondAnswer.body.result], [200, 'already_converted']);
    assert.equal((await salesOf(h(), linkId)).length, 1);
  });

  test('Stripe: payment_intent.succeeded takes metadata.lpx_cid; a zero-decimal currency is whole units', async () => {
    const { key } = await h().account();
    const integration = await integrate(h(), key, 'stripe', STRIPE_SECRET);
    const { cid, linkId } = await clickId(h(), key);
    const payload = stripeEvent('evt_pi', 'payment_intent.succeeded', {
      object: 'payment_intent',
      amount_received: 1500,
      currency: 'jpy',
      metadata: { lpx_cid: cid },
    });
    assert.equal((await postStripe(h(), integration, payload)).body.result, 'recorded');
    const [sale] = await salesOf(h(), linkId);
    assert.deepEqual([Number(sale!.value), sale!.currency], [1500, 'JPY']);
  });

  test('Stripe: a bad, stale or missing signature is a 400 and records nothing; other events are ignored', async () => {
    const { key } = await h().account();
    const integration = await integrate(h(), key, 'stripe', STRIPE_SECRET);
    const { cid, linkId } = await clickId(h(), key);
    const payload = stripeEvent('evt_bad', 'checkout.session.completed', {
      client_reference_id: cid,
      amount_total: 100,
      currency: 'usd',
    });
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_another' });
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: STRIPE_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    for (const signature of [wrong, stale, 't=1,v1=zz', '']) {
      const res = await postStripe(h(), integration, payload, signature);
      assert.equal(res.status, 400, `${signature}: ${res.text}`);
      assert.deepEqual(res.body, { message: 'The signature is missing or does not match.', status: 400 });
    }
    const unsigned = await h().request('POST', pathOf(integration), {
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(unsigned.status, 400);
    // A body changed after signing.
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET });
    assert.equal((await postStripe(h(), integration, payload.replace('100', '1'), header)).status, 400);
    assert.deepEqual(await salesOf(h(), linkId), []);
    // The same event id, properly signed, still records: a refused post claimed nothing.
    assert.equal((await postStripe(h(), integration, payload)).body.result, 'recorded');

    const other = stripeEvent('evt_other', 'customer.created', { object: 'customer' });
    const res = await postStripe(h(), integration, other);
    assert.deepEqual([res.status, res.body.result], [200, 'ignored']);
  });

  test("an unknown click id, or another workspace's, records nothing and is still a 200", async () => {
    const mine = await h().account();
    const theirs = await h().account();
    const integration = await integrate(h(), mine.key, 'stripe', STRIPE_SECRET);
    const { cid: foreign, linkId: foreignLink } = await clickId(h(), theirs.key);
    const forged = 'A'.repeat(43);
    for (const [id, cid] of [
      ['evt_foreign', foreign],
      ['evt_forged', forged],
      ['evt_none', null],
    ] as const) {
      const payload = stripeEvent(id, 'checkout.session.completed', {
        ...(cid === null ? {} : { client_reference_id: cid }),
        amount_total: 100,
        currency: 'usd',
      });
      const res = await postStripe(h(), integration, payload);
      assert.deepEqual([res.status, res.body.result], [200, 'ignored'], `${id}: ${res.text}`);
    }
    assert.deepEqual(await salesOf(h(), foreignLink), []);
  });

  test('Shopify: orders/create with the HMAC records a sale from the note attributes or the landing site; replays and bad HMACs record nothing', async () => {
    const { key } = await h().account();
    const integration = await integrate(h(), key, 'shopify', SHOPIFY_SECRET);
    const byNote = await clickId(h(), key);
    const order = {
      id: 820982911946154500,
      total_price: '199.65',
      currency: 'CAD',
      note_attributes: [
        { name: 'colour', value: 'red' },
        { name: 'lpx_cid', value: byNote.cid },
      ],
    };
    const res = await postShopify(h(), integration, order, { id: 'b54557e4-1' });
    assert.deepEqual([res.status, res.body.result], [200, 'recorded'], res.text);
    assert.equal((await postShopify(h(), integration, order, { id: 'b54557e4-1' })).body.result, 'seen');
    assert.deepEqual(
      (await salesOf(h(), byNote.linkId)).map((r) => [r.name, Number(r.value), r.currency]),
      [['sale', 199.65, 'CAD']],
    );

    const byLanding = await clickId(h(), key);
    const landed = {
      id: 2,
      total_price: '10.00',
      currency: 'usd',
      landing_site: `/products/x?utm_source=a&lpx_cid=${byLanding.cid}`,
    };
    assert.equal((await postShopify(h(), integration, landed, { id: 'w-2' })).body.result, 'recorded');
    assert.deepEqual(
      (await salesOf(h(), byLanding.linkId)).map((r) => [Number(r.value), r.currency]),
      [[10, 'USD']],
    );

    const third = await clickId(h(), key);
    const body = { id: 3, total_price: '5.00', currency: 'EUR', landing_site: `/?lpx_cid=${third.cid}` };
    const bad = createHmac('sha256', 'another secret').update(JSON.stringify(body)).digest('base64');
    for (const hmac of [bad, '', 'not base64']) {
      const refused = await postShopify(h(), integration, body, { id: 'w-3', hmac });
      assert.equal(refused.status, 400, `${hmac}: ${refused.text}`);
    }
    const other = await postShopify(h(), integration, body, { id: 'w-4', topic: 'orders/updated' });
    assert.deepEqual([other.status, other.body.result], [200, 'ignored']);
    assert.deepEqual(await salesOf(h(), third.linkId), []);
  });

  test('an unknown token, or a removed integration’s, is a 404; a body over the limit a 413', async () => {
    const { key } = await h().account();
    const unknown = await h().request('POST', '/api/integrations/nothing-here', {
      body: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    assert.deepEqual([unknown.status, unknown.body], [404, { message: 'Resource not found.', status: 404 }]);
    const integration = await integrate(h(), key, 'stripe', STRIPE_SECRET);
    const huge = await h().request('POST', pathOf(integration), {
      body: JSON.stringify({ id: 'evt', pad: 'x'.repeat(600 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(huge.status, 413);
    const removed = await h().request('DELETE', `/api/v1/integrations/${integration.id}`, { key });
    assert.deepEqual(removed.body, { id: integration.id, object: 'integration', deleted: true, status: 200 });
    const payload = stripeEvent('evt_gone', 'checkout.session.completed', {});
    assert.equal((await postStripe(h(), integration, payload)).status, 404);
    const openapi = await h().request('GET', '/api/openapi.json');
    assert.ok(
      !Object.keys(openapi.body.paths).some((p) => p.startsWith('/api/integrations')),
      'the receiver is not in the document',
    );
    assert.ok(openapi.body.paths['/api/v1/integrations'], 'the API routes are');
  });

  test('create, list and remove: the secret never shown; 422s name type and secret; audit entries', async () => {
    const owner = await h().account();
    const made = await integrate(h(), owner.key, 'shopify', SHOPIFY_SECRET);
    assert.deepEqual(Object.keys(made).sort(), ['created_at', 'endpoint_url', 'id', 'type']);
    assert.equal(made.type, 'shopify');
    assert.match(made.endpoint_url, /^http:\/\/short\.test\/api\/integrations\/[A-Za-z0-9_-]{43}$/);
    const listed = await h().request('GET', '/api/v1/integrations', { key: owner.key });
    assert.deepEqual(listed.body, { data: [made], status: 200 });
    assert.ok(!listed.text.includes(SHOPIFY_SECRET));

    const refusals: [unknown, Record<string, string[]>][] = [
      [{}, { type: ['The type field is required.'], secret: ['The secret field is required.'] }],
      [{ type: 'paypal', secret: 'x' }, { type: ['The selected type is invalid.'] }],
      [{ type: 'stripe', secret: { a: 1 } }, { secret: ['The secret field must be a string.'] }],
      [{ type: 'stripe', secret: 'has space' }, { secret: ['The secret format is invalid.'] }],
      [
        { type: 'stripe', secret: 'x'.repeat(256) },
        { secret: ['The secret field must not be greater than 255 characters.'] },
      ],
    ];
    for (const [json, message] of refusals) {
      const res = await h().request('POST', '/api/v1/integrations', { key: owner.key, json });
      assert.deepEqual(res.body, { message, status: 422 }, JSON.stringify(json));
    }
    const form = await h().request('POST', '/api/v1/integrations', {
      key: owner.key,
      form: { type: 'stripe', secret: STRIPE_SECRET },
    });
    assert.equal(form.status, 201, 'a form too');

    const gone = await h().request('DELETE', `/api/v1/integrations/${made.id}`, { key: owner.key });
    assert.equal(gone.status, 200);
    assert.equal((await h().request('DELETE', `/api/v1/integrations/${made.id}`, { key: owner.key })).status, 404);
    const audit = await h().request('GET', `/api/v1/workspaces/${owner.id}/audit?target_type=integration`, {
      key: owner.key,
    });
    const actions = audit.body.data.map((e: Json) => [e.action, e.target.id]);
    assert.deepEqual(
      actions.sort(),
      [
        ['integration.created', form.body.data.id],
        ['integration.created', made.id],
        ['integration.removed', made.id],
      ].sort(),
    );
    assert.ok(!audit.text.includes(SHOPIFY_SECRET) && !audit.text.includes(made.endpoint_url.split('/').pop()));
  });

  test('admins and owners only, and a key needs workspace:admin; another workspace’s integration is not found', async () => {
    const owner = await h().account();
    const workspace = await makeWorkspace(h(), owner, 'Shop');
    const people: Record<string, string> = {};
    for (const role of ['viewer', 'editor', 'admin']) {
      const person = await h().account();
      await addMember(h(), owner, workspace.id, person, role);
      people[role] = await makeKey(h(), person, workspace.id);
    }
    const body = { type: 'stripe', secret: STRIPE_SECRET };
    for (const role of ['viewer', 'editor']) {
      for (const [method, path] of [
        ['GET', '/api/v1/integrations'],
        ['POST', '/api/v1/integrations'],
        ['DELETE', '/api/v1/integrations/1'],
      ] as const) {
        const res = await h().request(method, path, {
          key: people[role],
          ...(method === 'POST' ? { json: body } : {}),
        });
        assert.equal(res.status, 403, `${role} ${method}: ${res.text}`);
      }
    }
    const made = await h().request('POST', '/api/v1/integrations', { key: people.admin, json: body });
    assert.equal(made.status, 201, made.text);
    const scoped = await makeKey(h(), owner, workspace.id, ['links:write', 'stats:read', 'conversions:write']);
    const refused = await h().request('GET', '/api/v1/integrations', { key: scoped });
    assert.deepEqual(refused.body, { message: 'This key lacks the scope workspace:admin.', status: 403 });
    const admin = await makeKey(h(), owner, workspace.id, ['workspace:admin']);
    assert.equal((await h().request('GET', '/api/v1/integrations', { key: admin })).body.data.length, 1);
    // The owner's personal workspace sees none of the team's.
    assert.deepEqual((await h().request('GET', '/api/v1/integrations', { key: owner.key })).body.data, []);
    const elsewhere = await h().request('DELETE', `/api/v1/integrations/${made.body.data.id}`, { key: owner.key });
    assert.equal(elsewhere.status, 404);
  });
});

onEachEngine(
  'api: integrations, the receiver’s limit',
  (h) => {
    test('each endpoint is counted on its own against API_RATE_LIMIT: a 429 with Retry-After beyond it', async () => {
      const { id } = await h().account();
      const make = () =>
        h().server.container.integrations.create(id, { type: 'stripe', secret: STRIPE_SECRET }, TEST_ACTOR);
      const [first, second] = [await make(), await make()];
      const post = (token: string) =>
        h().request('POST', `/api/integrations/${token}`, {
          body: '{}',
          headers: { 'content-type': 'application/json' },
        });
      for (let i = 0; i < 3; i++) assert.equal((await post(first.token)).status, 400);
      const limited = await post(first.token);
      assert.deepEqual([limited.status, limited.body], [429, { message: 'Too Many Attempts.', status: 429 }]);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      assert.equal((await post(second.token)).status, 400, 'another endpoint has its own budget');
    });
  },
  { env: { API_RATE_LIMIT: '3' } },
);
