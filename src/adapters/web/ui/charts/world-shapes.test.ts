import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relativePath, worldShapes } from './world-shapes.ts';

/** The absolute points of relative path data, by the SVG rules: a lineto run continues after its first pair. */
function points(d: string): string[] {
  const out: string[] = [];
  let x = 0;
  let y = 0;
  for (const [, command, args] of d.matchAll(/([Mlz])([^Mlz]*)/g)) {
    if (command === 'z') continue;
    const n = (args!.match(/-?\d+/g) ?? []).map(Number);
    for (let i = 0; i < n.length; i += 2) {
      [x, y] = command === 'M' && i === 0 ? [n[i]!, n[i + 1]!] : [x + n[i]!, y + n[i + 1]!];
      out.push(`${x},${y}`);
    }
  }
  return out;
}

test('relative path data draws the same points, a point that does not move left out', () => {
  const d = 'M953,299L954,299L955,300L954,302L952,302L952,302L951,300ZM959,296L957,297Z';
  assert.equal(relativePath(d), 'M953 299l1 0 1 1-1 2-2 0-1-2zM959 296l-2 1z');
  assert.deepEqual(points(relativePath(d)), [
    '953,299',
    '954,299',
    '955,300',
    '954,302',
    '952,302',
    '951,300',
    '959,296',
    '957,297',
  ]);
});

test('data with any other command is kept as it is', () => {
  assert.equal(relativePath('M0,0A1,1,0,0,1,2,2Z'), 'M0,0A1,1,0,0,1,2,2Z');
});

test('every country of the map is drawn in relative steps', () => {
  for (const c of worldShapes().countries) assert.match(String(c.d), /^ d="(M-?\d+ -?\d+(l[-\d ]+)?z)+"$/);
});
