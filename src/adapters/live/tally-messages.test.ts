import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeTallies, encodeTallies } from './tally-messages.ts';

test('tallies cross Redis as they were sent', () => {
  const tallies = [{ accountId: 3, clicks: 4, links: { 7: 3, 9: 1 } }];
  assert.deepEqual(decodeTallies(encodeTallies('abc', tallies)), { from: 'abc', tallies });
});

test('anything else is no message', () => {
  for (const message of [
    'not json',
    'null',
    '[]',
    '{"from":1,"tallies":[]}',
    '{"from":"x","tallies":{}}',
    '{"from":"x","tallies":[{"accountId":"3","clicks":1,"links":{}}]}',
    '{"from":"x","tallies":[{"accountId":3,"clicks":-1,"links":{}}]}',
    '{"from":"x","tallies":[{"accountId":3,"clicks":1,"links":{"__proto__":1}}]}',
    '{"from":"x","tallies":[{"accountId":3,"clicks":1,"links":{"7":1.5}}]}',
    '{"from":"x","tallies":[null]}',
  ]) {
    assert.equal(decodeTallies(message), null, message);
  }
});
