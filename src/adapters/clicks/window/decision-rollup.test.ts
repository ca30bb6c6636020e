import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import { RollupWindow } from './rollup-window.ts';
import { decisionValue, parseDecision } from '../../../core/stats/decision-value.ts';
import { aClick } from '../../../../test/support/clicks.ts';

// The day and hour these tests count in; the rest as the shared factory makes it.
const click = (over: Partial<Click> = {}): Click => aClick({ day: '2026-03-10', hour: 9, ...over });

test('a decision value names the rule, and the variant of a split, and reads back', () => {
  assert.equal(decisionValue(3, null), '3');
  assert.equal(decisionValue(0, 1), '0.1');
  assert.deepEqual(parseDecision('3'), { rule: 3, variant: null });
  assert.deepEqual(parseDecision('0.1'), { rule: 0, variant: 1 });
  assert.equal(parseDecision(''), null);
  assert.equal(parseDecision('x.1'), null);
});

test('the window counts human clicks a rule decided per rule and variant; none for bots or undecided clicks', () => {
  const window = new RollupWindow();
  window.add([
    click({ rule: 0, variant: 1 }),
    click({ rule: 0, variant: 1 }),
    click({ rule: 2, variant: null }),
    click({ rule: 0, variant: 1, isBot: true }),
    click(),
    click({ rule: null, variant: null }),
  ]);
  const decisions = window
    .drain()
    .increments.filter((r) => r.dimension === 'decision')
    .map((r) => [r.value, r.count]);
  assert.deepEqual(decisions, [
    ['0.1', 2],
    ['2', 1],
  ]);
});
