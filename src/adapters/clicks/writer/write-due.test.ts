import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeDueIn, writeDueMs } from './write-due.ts';

test('a write is due an interval after its oldest click, less a quarter of it for the write (at most 100 ms)', () => {
  assert.equal(writeDueMs(200), 150);
  assert.equal(writeDueMs(1000), 900);
  assert.equal(writeDueMs(10), 7.5);
  assert.equal(writeDueIn(1000, 200, 1000), 150);
  assert.equal(writeDueIn(1000, 200, 1100), 50);
  assert.equal(writeDueIn(1000, 200, 5000), 0, 'overdue: now');
});
