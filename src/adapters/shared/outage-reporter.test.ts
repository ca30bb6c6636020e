import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutageReporter } from './outage-reporter.ts';

test('an outage is told once when it begins and once when it ends, however many failures between', () => {
  const lines: string[] = [];
  let now = 1_000;
  const outage = new OutageReporter(
    'PostgreSQL',
    (message, error) => lines.push(error ? `${message}: ${(error as Error).message}` : message),
    () => now,
  );
  outage.recovered();
  assert.deepEqual(lines, []);
  for (let i = 0; i < 50; i++) outage.failed(new Error(`refused ${i}`));
  assert.ok(outage.down);
  now += 12_000;
  outage.recovered();
  outage.recovered();
  assert.equal(outage.down, false);
  outage.failed(new Error('again'));
  assert.deepEqual(lines, [
    'lost the connection to PostgreSQL; reconnecting as needed: refused 0',
    'connected to PostgreSQL again after 12 s (49 further errors not logged)',
    'lost the connection to PostgreSQL; reconnecting as needed: again',
  ]);
});
