import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMalformed, repeatsHost } from './malformed-request.ts';

test('a second Host field in any case is found; one Host, or none, is not', () => {
  assert.equal(repeatsHost(['Host', 'a.test', 'User-Agent', 'x', 'host', 'b.test']), true);
  assert.equal(repeatsHost(['HOST', 'a.test', 'hOsT', 'a.test']), true, 'the same value twice is still two fields');
  assert.equal(repeatsHost(['Host', 'a.test', 'Hosts', 'b', 'X-Host', 'c', 'Post', 'd']), false);
  assert.equal(repeatsHost([]), false);
});

test('a fragment anywhere in the target is malformed; a percent-encoded # is not', () => {
  assert.equal(isMalformed('/abc#top', ['Host', 'a']), true);
  assert.equal(isMalformed('/abc?x=1#top', ['Host', 'a']), true);
  assert.equal(isMalformed('/abc?x=%23top', ['Host', 'a']), false);
  assert.equal(isMalformed('/abc', ['Host', 'a', 'Host', 'b']), true);
});
