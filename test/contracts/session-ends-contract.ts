// What every SessionEnds must do, run against each implementation: memory (unit) and Redis
// (integration, two instances sharing one Redis). A single-instance one is given as a twice.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionEnds } from '../../src/core/live/session-ends.ts';
import { eventually } from '../support/eventually.ts';

export interface SharedEnds {
  a: SessionEnds;
  b: SessionEnds;
}

let accounts = 2_000_000 + Math.floor(Math.random() * 1_000_000);

export function describeSessionEndsContract(name: string, make: () => SharedEnds): void {
  describe(`${name}: the SessionEnds contract`, () => {
    test("an account's end reaches its listeners, here once and on the other instance", async () => {
      const { a, b } = make();
      const account = ++accounts;
      let here = 0;
      let there = 0;
      const offA = a.subscribe(account, () => here++);
      const offB = b.subscribe(account, () => there++);
      a.publish(account);
      await eventually('the other instance heard the end', () => there === 1);
      assert.equal(here, 1, 'heard once here (no echo)');
      offA();
      offB();
    });

    test("another account's ends never reach a listener", async () => {
      const { a, b } = make();
      const mine = ++accounts;
      const theirs = ++accounts;
      const heard: string[] = [];
      const off = b.subscribe(mine, () => heard.push('mine'));
      a.publish(theirs);
      a.publish(mine);
      await eventually('the account heard its own end', () => heard.length === 1);
      // The other account's end was published first: had it come through, it would be here by now.
      assert.deepEqual(heard, ['mine']);
      off();
    });

    test('an unsubscribed listener hears nothing more; one that throws keeps no one else from hearing', async () => {
      const { a } = make();
      const account = ++accounts;
      let gone = 0;
      let kept = 0;
      const off = a.subscribe(account, () => gone++);
      a.subscribe(account, () => {
        throw new Error('a broken listener');
      });
      const offKept = a.subscribe(account, () => kept++);
      off();
      a.publish(account);
      await eventually('the kept listener heard the end', () => kept === 1);
      assert.equal(gone, 0);
      offKept();
    });
  });
}
