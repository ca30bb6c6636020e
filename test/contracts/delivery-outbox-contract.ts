// What every DeliveryOutbox and ExpiryClaims promise (src/core/webhooks/ports.ts), as the webhook
// dispatcher and the expiry sweep rely on them: run against the SQL stores on both engines. The
// database is shared with other suites, so each test reads only its own webhooks' and links' rows
// and leaves nothing due behind (disable drops a webhook's pending deliveries).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  ClaimedDelivery,
  DeliveryOutbox,
  ExpiryClaims,
  NewDelivery,
  WebhookStore,
} from '../../src/core/webhooks/ports.ts';

export interface DeliveryOutboxSubject {
  outbox: DeliveryOutbox;
  webhooks: WebhookStore;
  account: () => Promise<number>;
}

export interface ExpiryClaimsSubject {
  expiries: ExpiryClaims;
  account: () => Promise<number>;
  /** A link of the account with this date, click cap and clicks. */
  link: (accountId: number, expiry: { endsAt?: number; cap?: number; clicks?: number }) => Promise<number>;
}

let deliveries = 0;
const delivery = (webhookId: number, linkId: number | null): NewDelivery => ({
  id: `d${process.pid.toString(36)}-${Date.now().toString(36)}-${++deliveries}`,
  webhookId,
  event: 'link.clicked',
  linkId,
  body: `{"n":${deliveries}}`,
});

async function live(s: DeliveryOutboxSubject, secret = 'whsec_contract') {
  return s.webhooks.insert(
    await s.account(),
    { url: 'https://hooks.example.com/in', events: ['link.clicked'], secret },
    1000,
  );
}

/** The claims of these webhooks only (other suites' rows are never due here, but be sure). */
const mine = (claimed: ClaimedDelivery[], hooks: number[]) => claimed.filter((d) => hooks.includes(d.webhookId));

export function describeDeliveryOutboxContract(name: string, make: () => DeliveryOutboxSubject): void {
  describe(`${name}: the DeliveryOutbox contract`, () => {
    test('claim leases due deliveries in the order enqueued, with the webhook’s url and secret, up to the limit; leased ones wait for the lease', async () => {
      const s = make();
      const hook = (await live(s, 'whsec_a')).id;
      const made = [delivery(hook, null), delivery(hook, null), delivery(hook, null)];
      await s.outbox.enqueue(made, 10_000);
      assert.deepEqual(mine(await s.outbox.claim(9_999, 1000, 10), [hook]), [], 'not due yet');
      const first = mine(await s.outbox.claim(10_000, 1000, 2), [hook]);
      assert.deepEqual(first, [
        { ...made[0]!, attempts: 0, url: 'https://hooks.example.com/in', secret: 'whsec_a' },
        { ...made[1]!, attempts: 0, url: 'https://hooks.example.com/in', secret: 'whsec_a' },
      ]);
      assert.deepEqual(
        mine(await s.outbox.claim(10_500, 1000, 10), [hook]).map((d) => d.id),
        [made[2]!.id],
      );
      assert.deepEqual(mine(await s.outbox.claim(10_999, 1000, 10), [hook]), [], 'all leased');
      assert.deepEqual(
        mine(await s.outbox.claim(11_000, 1000, 10), [hook]).map((d) => d.id),
        [made[0]!.id, made[1]!.id],
        'a lease run out: another claimer takes them',
      );
      await s.outbox.disable(hook, 20_000);
    });

    test('one link’s deliveries to one webhook go one at a time, in order; other links’ do not wait', async () => {
      const s = make();
      const [hook, other] = [(await live(s)).id, (await live(s)).id];
      const [a1, a2, b1, c1] = [delivery(hook, 7), delivery(hook, 7), delivery(hook, 8), delivery(other, 7)];
      await s.outbox.enqueue([a1, a2, b1, c1], 30_000);
      const claimed = mine(await s.outbox.claim(30_000, 1000, 10), [hook, other]);
      assert.deepEqual(
        claimed.map((d) => d.id),
        [a1.id, b1.id, c1.id],
      );
      assert.deepEqual(
        mine(await s.outbox.claim(31_000, 1000, 10), [hook]).map((d) => d.id),
        [a1.id, b1.id],
        'a2 waits while a1 is pending',
      );
      await s.outbox.delivered(claimed[0]!);
      assert.deepEqual(
        mine(await s.outbox.claim(31_000, 1000, 10), [hook]).map((d) => d.id),
        [a2.id],
      );
      await s.outbox.disable(hook, 40_000);
      await s.outbox.disable(other, 40_000);
    });

    test('failed: due again at nextAt with one attempt more; the failure window starts once and delivered clears it', async () => {
      const s = make();
      const webhook = await live(s);
      const hook = webhook.id;
      const made = [delivery(hook, null), delivery(hook, null)];
      await s.outbox.enqueue(made, 50_000);
      const [first, second] = mine(await s.outbox.claim(50_000, 1000, 10), [hook]);
      assert.equal(await s.outbox.failed(first!, 55_000, 'HTTP 500', 50_100), 50_100);
      assert.equal(
        await s.outbox.failed(second!, 55_000, 'timeout', 50_200),
        50_100,
        'the window started at the first failure',
      );
      assert.equal((await s.webhooks.findById(webhook.accountId, hook))?.failingSince, 50_100);
      assert.deepEqual(mine(await s.outbox.claim(54_999, 1000, 10), [hook]), [], 'not due before nextAt');
      const retried = mine(await s.outbox.claim(55_000, 1000, 10), [hook]);
      assert.deepEqual(
        retried.map((d) => [d.id, d.attempts, d.body]),
        made.map((d) => [d.id, 1, d.body]),
        'the same bytes, one attempt more',
      );
      await s.outbox.delivered(retried[0]!);
      assert.equal((await s.webhooks.findById(webhook.accountId, hook))?.failingSince, null);
      assert.equal(
        await s.outbox.failed(retried[1]!, 60_000, 'HTTP 502', 56_000),
        56_000,
        'a delivery cleared the window',
      );
      await s.outbox.disable(hook, 60_000);
    });

    test('disable stops the webhook and drops its pending deliveries; a disabled webhook’s are never claimed', async () => {
      const s = make();
      const webhook = await live(s);
      const [hook, kept] = [webhook.id, (await live(s)).id];
      await s.outbox.enqueue([delivery(hook, 1), delivery(kept, 1)], 70_000);
      await s.outbox.disable(hook, 70_500);
      await s.outbox.disable(hook, 71_000);
      assert.equal((await s.webhooks.findById(webhook.accountId, hook))?.disabledAt, 70_500, 'disabled once');
      assert.deepEqual(
        mine(await s.outbox.claim(72_000, 1000, 10), [hook, kept]).map((d) => d.webhookId),
        [kept],
      );
      await s.outbox.disable(kept, 73_000);
      assert.deepEqual(mine(await s.outbox.claim(80_000, 1000, 10), [hook, kept]), []);
    });
  });
}

export function describeExpiryClaimsContract(name: string, make: () => ExpiryClaimsSubject): void {
  describe(`${name}: the ExpiryClaims contract`, () => {
    test('links past their date or at their click cap are taken once each, with their account; others never', async () => {
      const s = make();
      const account = await s.account();
      const dated = await s.link(account, { endsAt: 5000 }); // made at 1000, before its date
      const capped = await s.link(account, { cap: 3, clicks: 3 });
      const ids = [
        dated,
        capped,
        await s.link(account, { endsAt: 9000 }),
        await s.link(account, { cap: 3, clicks: 2 }),
        await s.link(account, {}),
      ];
      const taken = (await s.expiries.claim(5000, 1000)).filter((c) => ids.includes(c.id));
      assert.deepEqual(
        taken.sort((a, b) => a.id - b.id),
        [
          { id: dated, accountId: account },
          { id: capped, accountId: account },
        ],
      );
      assert.deepEqual(
        (await s.expiries.claim(5000, 1000)).filter((c) => ids.includes(c.id)),
        [],
        'told already',
      );
    });

    test('at most limit by date and limit by cap a claim; the rest in the next', async () => {
      const s = make();
      const account = await s.account();
      const ids: number[] = [];
      // Due after their creation at 1000: a link made already past its date counts as told (docs/design/webhooks.md).
      for (let i = 0; i < 3; i++)
        ids.push(await s.link(account, { endsAt: 1500 }), await s.link(account, { cap: 1, clicks: 1 }));
      // Other suites' expired links may be due too: claim until none of these is left.
      let rounds = 0;
      const seen: number[] = [];
      for (;;) {
        const claimed = await s.expiries.claim(2000, 2);
        assert.ok(claimed.length <= 4);
        seen.push(...claimed.filter((c) => ids.includes(c.id)).map((c) => c.id));
        rounds++;
        if (claimed.length === 0) break;
      }
      assert.deepEqual(
        seen.sort((a, b) => a - b),
        [...ids].sort((a, b) => a - b),
      );
      assert.ok(rounds >= 3, 'two rounds at least take the six, a third finds none');
    });
  });
}
