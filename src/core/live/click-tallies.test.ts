import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClickTallies } from './click-tallies.ts';

test('clicks are summed per account and per link; drain starts afresh', () => {
  const tallies = new ClickTallies();
  assert.equal(tallies.empty, true);
  for (const linkId of [1, 1, 2]) tallies.add({ accountId: 10, linkId, isBot: false });
  tallies.add({ accountId: 11, linkId: 3, isBot: false });
  assert.equal(tallies.empty, false);
  assert.deepEqual(tallies.drain(), [
    { accountId: 10, clicks: 3, links: { 1: 2, 2: 1 } },
    { accountId: 11, clicks: 1, links: { 3: 1 } },
  ]);
  assert.equal(tallies.empty, true);
  assert.deepEqual(tallies.drain(), []);
});

test('bots count in no live total', () => {
  const tallies = new ClickTallies();
  tallies.add({ accountId: 10, linkId: 1, isBot: true });
  assert.equal(tallies.empty, true);
  tallies.add({ accountId: 10, linkId: 1, isBot: false });
  tallies.add({ accountId: 10, linkId: 1, isBot: true });
  assert.deepEqual(tallies.drain(), [{ accountId: 10, clicks: 1, links: { 1: 1 } }]);
});
