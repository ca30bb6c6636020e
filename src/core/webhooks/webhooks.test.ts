import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldErrorBag } from '../shared/errors.ts';
import { checkWebhookInput, checkWebhookPatch } from './webhook-rules.ts';
import { newWebhookSecret, signatureHeader, verifySignature } from './signature.ts';
import { FAILURE_WINDOW_MS, retryDelayMs } from './retry-policy.ts';
import { jsonBody } from './webhook-events.ts';

test('a signature is HMAC-SHA256 of "t.body" and verifies only for that body, secret and time', () => {
  const secret = newWebhookSecret();
  const envelope = {
    id: 'd-1',
    type: 'link.created',
    created_at: new Date(0).toISOString(),
    data: { link: { id: 1 } },
  };
  const body = jsonBody(envelope as Parameters<typeof jsonBody>[0], {} as Parameters<typeof jsonBody>[1]);
  assert.deepEqual(JSON.parse(body), {
    id: 'd-1',
    type: 'link.created',
    created_at: '1970-01-01T00:00:00.000Z',
    data: { link: { id: 1 } },
  });
  const header = signatureHeader(secret, body, 1_700_000_000);
  assert.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/);
  assert.ok(verifySignature(secret, body, header, 1_700_000_010));
  assert.equal(verifySignature(secret, body + ' ', header, 1_700_000_010), false);
  assert.equal(verifySignature(newWebhookSecret(), body, header, 1_700_000_010), false);
  assert.equal(verifySignature(secret, body, header, 1_700_001_000), false, 'too old: a replay');
  assert.equal(verifySignature(secret, body, 'garbage', 1_700_000_010), false);
});

test('retries wait longer each time, at most an hour, so a day holds a few dozen attempts', () => {
  assert.deepEqual([1, 2, 3, 4].map(retryDelayMs), [1000, 2000, 4000, 8000]);
  assert.equal(retryDelayMs(40), 3_600_000);
  let attempts = 0;
  for (let waited = 0; waited < FAILURE_WINDOW_MS; attempts++) waited += retryDelayMs(attempts + 1);
  assert.ok(attempts > 20 && attempts < 40, String(attempts));
});

test('a webhook needs an http(s) URL and known events; every bad field is named', () => {
  const bag = new FieldErrorBag();
  assert.equal(checkWebhookInput({ url: 'javascript:alert(1)', events: ['link.nope'] }, bag), null);
  assert.ok(bag.has('url') && bag.has('events'));
  const ok = new FieldErrorBag();
  assert.deepEqual(
    checkWebhookInput({ url: ' https://example.com/h ', events: ['link.created', 'link.created'] }, ok),
    {
      url: 'https://example.com/h',
      events: ['link.created'],
      format: 'json',
    },
  );
  const slack = checkWebhookInput({ url: 'https://example.com/h', events: ['link.created'], format: 'slack' }, ok);
  assert.equal(slack?.format, 'slack');
  const badFormat = new FieldErrorBag();
  assert.equal(
    checkWebhookInput({ url: 'https://example.com/h', events: ['link.created'], format: 'xml' }, badFormat),
    null,
  );
  assert.deepEqual([badFormat.has('format'), badFormat.has('url')], [true, false]);
  const none = new FieldErrorBag();
  checkWebhookInput({}, none);
  assert.ok(none.has('url') && none.has('events'));
});

test('a change checks only the fields it names, each as on creation', () => {
  const bag = new FieldErrorBag();
  assert.deepEqual(checkWebhookPatch({ format: 'slack', enabled: false }, bag), { format: 'slack', enabled: false });
  assert.equal(bag.has('url') || bag.has('events'), false);
  const bad = new FieldErrorBag();
  checkWebhookPatch({ url: 'ftp://example.com', events: [], format: 'xml' }, bad);
  assert.ok(bad.has('url') && bad.has('events') && bad.has('format'));
  assert.deepEqual(checkWebhookPatch({}, new FieldErrorBag()), {});
});
