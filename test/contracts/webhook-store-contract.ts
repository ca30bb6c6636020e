// What every WebhookStore promises (src/core/webhooks/ports.ts), as the webhooks service, the
// dispatcher and the clicks tap rely on it: run against the SQL store on both engines.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WebhookStore } from '../../src/core/webhooks/ports.ts';

export interface WebhookStoreSubject {
  webhooks: WebhookStore;
  account: () => Promise<number>;
  /** Disables a webhook, as its failing deliveries do outside this port. */
  disable: (webhookId: number, at: number) => Promise<void>;
}

const hook = (
  events: Array<'link.created' | 'link.updated' | 'link.deleted' | 'link.expired' | 'link.clicked'>,
  secret = 'whsec_test',
) => ({
  url: 'https://hooks.example.com/in',
  events,
  secret,
});

export function describeWebhookStoreContract(name: string, make: () => WebhookStoreSubject): void {
  describe(`${name}: the WebhookStore contract`, () => {
    test('insert answers the webhook without its secret; list (by id), count and findById are the account’s own', async () => {
      const s = make();
      const [mine, theirs] = [await s.account(), await s.account()];
      const first = await s.webhooks.insert(mine, hook(['link.created', 'link.clicked']), 1000);
      assert.deepEqual(first, {
        id: first.id,
        accountId: mine,
        url: 'https://hooks.example.com/in',
        events: ['link.created', 'link.clicked'],
        format: 'json',
        createdAt: 1000,
        failingSince: null,
        disabledAt: null,
      });
      assert.equal('secret' in first, false);
      const second = await s.webhooks.insert(mine, hook(['link.deleted']), 2000);
      await s.webhooks.insert(theirs, hook(['link.deleted']), 2000);
      assert.deepEqual(
        (await s.webhooks.list(mine)).map((w) => w.id),
        [first.id, second.id],
      );
      assert.equal(await s.webhooks.count(mine), 2);
      assert.deepEqual(await s.webhooks.findById(mine, first.id), first);
      assert.equal(await s.webhooks.findById(theirs, first.id), null);
      assert.equal('secret' in (await s.webhooks.list(mine))[0]!, false);
    });

    test('delete is the account’s own and says whether it deleted', async () => {
      const s = make();
      const [mine, theirs] = [await s.account(), await s.account()];
      const made = await s.webhooks.insert(mine, hook(['link.created']), 1000);
      assert.equal(await s.webhooks.delete(theirs, made.id), false);
      assert.equal(await s.webhooks.delete(mine, made.id), true);
      assert.equal(await s.webhooks.delete(mine, made.id), false);
      assert.equal(await s.webhooks.count(mine), 0);
    });

    test('subscribers: the account’s live webhooks on the event, with their secrets, by id', async () => {
      const s = make();
      const [mine, theirs] = [await s.account(), await s.account()];
      const a = await s.webhooks.insert(mine, hook(['link.created', 'link.expired'], 'secret-a'), 1000);
      await s.webhooks.insert(mine, hook(['link.updated']), 1000);
      const c = await s.webhooks.insert(mine, hook(['link.expired'], 'secret-c'), 1000);
      const off = await s.webhooks.insert(mine, hook(['link.expired']), 1000);
      await s.webhooks.insert(theirs, hook(['link.expired']), 1000);
      await s.disable(off.id, 5000);
      assert.deepEqual(
        (await s.webhooks.subscribers(mine, 'link.expired')).map((w) => [w.id, w.secret]),
        [
          [a.id, 'secret-a'],
          [c.id, 'secret-c'],
        ],
      );
      assert.deepEqual(await s.webhooks.subscribers(mine, 'link.deleted'), []);
      const [first] = await s.webhooks.subscribers(mine, 'link.created');
      assert.deepEqual([first?.format, typeof first?.workspace], ['json', 'string'], 'its format and workspace name');
    });

    test('update sets the fields given, on the account’s own; off is no notice, on again clears the failure', async () => {
      const s = make();
      const [mine, theirs] = [await s.account(), await s.account()];
      const made = await s.webhooks.insert(mine, { ...hook(['link.created']), format: 'slack' }, 1000);
      assert.equal(made.format, 'slack');
      assert.equal(await s.webhooks.update(theirs, made.id, { format: 'json' }, 2000), null);
      const changed = await s.webhooks.update(
        mine,
        made.id,
        { url: 'https://hooks.example.com/other', events: ['link.deleted'], format: 'json' },
        2000,
      );
      assert.deepEqual(changed, {
        ...made,
        url: 'https://hooks.example.com/other',
        events: ['link.deleted'],
        format: 'json',
      });
      assert.deepEqual(await s.webhooks.update(mine, made.id, {}, 2000), changed);
      const off = await s.webhooks.update(mine, made.id, { enabled: false }, 3000);
      assert.equal(off?.disabledAt, 3000);
      assert.deepEqual(await s.webhooks.subscribers(mine, 'link.deleted'), []);
      assert.deepEqual(await s.webhooks.takeDisabledNotice(mine), [], 'its author turned it off: nothing to tell');
      const on = await s.webhooks.update(mine, made.id, { enabled: true }, 4000);
      assert.deepEqual([on?.disabledAt, on?.failingSince], [null, null]);
      assert.equal((await s.webhooks.subscribers(mine, 'link.deleted')).length, 1);
      await s.disable(made.id, 5000);
      assert.deepEqual(await s.webhooks.takeDisabledNotice(mine), [made.id], 'disabled by failures again: told again');
      assert.equal(await s.webhooks.update(mine, made.id + 1000, { enabled: true }, 6000), null);
    });

    test('accountsSubscribed: each account with a live webhook on the event, once; a like-named event does not count', async () => {
      const s = make();
      const [twice, disabled, other] = [await s.account(), await s.account(), await s.account()];
      await s.webhooks.insert(twice, hook(['link.clicked']), 1000);
      await s.webhooks.insert(twice, hook(['link.created', 'link.clicked']), 1000);
      await s.disable((await s.webhooks.insert(disabled, hook(['link.clicked']), 1000)).id, 2000);
      await s.webhooks.insert(other, hook(['link.created']), 1000);
      const subscribed = await s.webhooks.accountsSubscribed('link.clicked');
      assert.equal(subscribed.filter((id) => id === twice).length, 1);
      assert.equal(subscribed.includes(disabled), false);
      assert.equal(subscribed.includes(other), false);
    });

    test('takeDisabledNotice tells each disabled webhook once, by id', async () => {
      const s = make();
      const mine = await s.account();
      const [a, b] = [
        await s.webhooks.insert(mine, hook(['link.created']), 1000),
        await s.webhooks.insert(mine, hook(['link.created']), 1000),
      ];
      assert.deepEqual(await s.webhooks.takeDisabledNotice(mine), []);
      await s.disable(b.id, 3000);
      await s.disable(a.id, 3000);
      assert.deepEqual(await s.webhooks.takeDisabledNotice(mine), [a.id, b.id]);
      assert.deepEqual(await s.webhooks.takeDisabledNotice(mine), []);
      assert.equal((await s.webhooks.findById(mine, a.id))?.disabledAt, 3000);
    });
  });
}
