// What every ClickFeed must do, run against each implementation: memory (unit) and Redis
// (integration, two instances sharing one Redis). A single-instance feed is given as a twice.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClickFeed, ClickTally } from '../../src/core/live/click-feed.ts';
import { eventually } from '../support/eventually.ts';

export interface SharedFeed {
  a: ClickFeed;
  b: ClickFeed;
  /** Resolves once `feed`'s subscriptions can hear other instances (at once in memory). */
  ready: (feed: ClickFeed) => Promise<void>;
}

let accounts = 1_000_000 + Math.floor(Math.random() * 1_000_000);
const tally = (accountId: number, links: Record<number, number>): ClickTally => ({
  accountId,
  clicks: Object.values(links).reduce((s, n) => s + n, 0),
  links,
});

export function describeClickFeedContract(name: string, make: () => SharedFeed): void {
  describe(`${name}: the ClickFeed contract`, () => {
    test('a tally reaches the listeners of its account, here and on the other instance', async () => {
      const { a, b, ready } = make();
      const account = ++accounts;
      const here: ClickTally[] = [];
      const there: ClickTally[] = [];
      const offA = a.subscribe(account, (t) => here.push(t));
      const offB = b.subscribe(account, (t) => there.push(t));
      await ready(a);
      await ready(b);
      a.publish([tally(account, { 7: 2, 8: 1 })]);
      await eventually('the other instance heard the tally', () => there.length === 1);
      assert.deepEqual(here, [tally(account, { 7: 2, 8: 1 })], 'heard once here (no echo)');
      assert.deepEqual(there, [tally(account, { 7: 2, 8: 1 })]);
      offA();
      offB();
    });

    test("another account's tallies never reach a listener", async () => {
      const { a, b, ready } = make();
      const mine = ++accounts;
      const theirs = ++accounts;
      const heard: ClickTally[] = [];
      const off = b.subscribe(mine, (t) => heard.push(t));
      await ready(b);
      a.publish([tally(theirs, { 1: 5 })]);
      a.publish([tally(theirs, { 1: 1 }), tally(mine, { 2: 1 })]);
      await eventually('the account heard its own tally', () => heard.length === 1);
      assert.deepEqual(heard, [tally(mine, { 2: 1 })]);
      off();
    });

    test('an unsubscribed listener hears nothing more; one that throws keeps no one else from hearing', async () => {
      const { a, ready } = make();
      const account = ++accounts;
      const gone: ClickTally[] = [];
      const kept: ClickTally[] = [];
      const off = a.subscribe(account, (t) => gone.push(t));
      a.subscribe(account, () => {
        throw new Error('a broken listener');
      });
      const offKept = a.subscribe(account, (t) => kept.push(t));
      await ready(a);
      off();
      a.publish([tally(account, { 3: 1 })]);
      await eventually('the kept listener heard the tally', () => kept.length === 1);
      assert.equal(gone.length, 0);
      offKept();
    });
  });
}
