import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClaimedDelivery, DeliveryOutbox, WebhookSender } from './ports.ts';
import { WebhookDispatcher } from './webhook-dispatcher.ts';

const delivery = (id: string): ClaimedDelivery => ({
  id,
  webhookId: 1,
  linkId: 1,
  event: 'link.created',
  body: '{}',
  attempts: 0,
  url: 'https://receiver.example/hook',
  secret: 'whsec_test',
});

/** An outbox holding two due deliveries, recording what the dispatcher tells it. */
function outboxOf(due: ClaimedDelivery[]): DeliveryOutbox & { told: string[] } {
  const told: string[] = [];
  return {
    told,
    enqueue: () => Promise.resolve(),
    claim: () => Promise.resolve(due.splice(0)),
    delivered: (d) => Promise.resolve(void told.push(`delivered ${d.id}`)),
    failed: (d, _next, error) => Promise.resolve(told.push(`failed ${d.id}: ${error}`) && 0),
    disable: () => Promise.resolve(),
  };
}

test('a stop ends the deliveries in flight at once; one cut short is neither delivered nor counted as failed', async () => {
  const outbox = outboxOf([delivery('a'), delivery('b')]);
  // A receiver that never answers: only the stop ends its request, as undici's signal does.
  const sender: WebhookSender = {
    send: (_url, _headers, _body, stop) =>
      new Promise((_resolve, reject) => stop?.addEventListener('abort', () => reject(new Error('aborted')))),
  };
  const dispatcher = new WebhookDispatcher({ outbox, sender, clock: { now: () => 0 } }, { leaseMs: 60_000, batch: 10 });
  const stop = new AbortController();
  const round = dispatcher.deliverDue(stop.signal);
  await new Promise((resolve) => setImmediate(resolve));
  stop.abort();
  assert.equal(await round, 2);
  assert.deepEqual(outbox.told, [], 'both stay leased, to be sent again once the lease runs out');
});

test('a failure that is not the stop is still counted, with the stop signal given', async () => {
  const outbox = outboxOf([delivery('a')]);
  const sender: WebhookSender = { send: () => Promise.reject(new Error('connect ECONNREFUSED')) };
  const dispatcher = new WebhookDispatcher({ outbox, sender, clock: { now: () => 0 } }, { leaseMs: 60_000, batch: 10 });
  await dispatcher.deliverDue(new AbortController().signal);
  assert.deepEqual(outbox.told, ['failed a: connect ECONNREFUSED']);
});
