import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_WINDOW_ROWS, PROMPT_WINDOW_ROWS, windowDue } from './window-policy.ts';

test('an empty window is never due', () => {
  assert.equal(windowDue({ rows: 0, ageMs: 1e9, intervalMs: 0 }), false);
});

test('interval 0: written after every batch', () => {
  assert.equal(windowDue({ rows: 5_000, ageMs: 0, intervalMs: 0 }), true);
});

test('a small window goes with the batch; a larger one waits for the interval, or until it is full', () => {
  const intervalMs = 15_000;
  assert.equal(windowDue({ rows: PROMPT_WINDOW_ROWS - 1, ageMs: 0, intervalMs }), true);
  assert.equal(windowDue({ rows: PROMPT_WINDOW_ROWS, ageMs: 0, intervalMs }), false);
  assert.equal(windowDue({ rows: PROMPT_WINDOW_ROWS, ageMs: intervalMs - 1, intervalMs }), false);
  assert.equal(windowDue({ rows: PROMPT_WINDOW_ROWS, ageMs: intervalMs, intervalMs }), true);
  assert.equal(windowDue({ rows: MAX_WINDOW_ROWS, ageMs: 0, intervalMs }), true);
});
