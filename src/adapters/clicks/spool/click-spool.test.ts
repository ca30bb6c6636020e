import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Click } from '../../../core/clicks/click.ts';
import { aClick } from '../../../../test/support/clicks.ts';
import { ClickSpool } from './click-spool.ts';

const click = (linkId: number, at = Date.parse('2026-11-23T10:00:00Z')): Click =>
  aClick({ linkId, at, hour: 10, country: 'US', browser: 'Chrome' });
const batch = (n: number, linkId = 1, since = 1000) => ({
  clicks: Array.from({ length: n }, () => click(linkId)),
  counts: [[linkId, n]] as Array<[number, number]>,
  rotations: [[linkId, n]] as Array<[number, number]>,
  since,
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'linkpix-spool-'));
}

test('appended hand-overs read back as one batch a segment: clicks in order, counts summed, latest rotation, oldest since', async () => {
  const dir = tempDir();
  try {
    const spool = new ClickSpool(join(dir, 'spool'));
    assert.equal(spool.append(batch(3, 1, 2000)), true);
    assert.equal(spool.append(batch(2, 1, 1000)), true);
    assert.equal(spool.size, 1);
    const id = spool.oldest()!;
    const segment = await spool.read(id);
    assert.equal(segment.clicks, 5);
    assert.deepEqual([...segment.batch.counts], [[1, 5]]);
    assert.deepEqual([...segment.batch.rotations], [[1, 2]]);
    assert.equal(segment.batch.since, 1000);
    assert.deepEqual([...segment.batch.clicks][0], click(1));
    // Sealed once taken: what is appended next starts a segment of its own.
    spool.append(batch(1, 2));
    assert.equal(spool.size, 2);
    spool.remove(id);
    assert.equal(spool.size, 1);
    assert.equal((await spool.read(spool.oldest()!)).clicks, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('segments are bounded in bytes, and the spool as a whole: past its bound an append is refused, nothing written', () => {
  const dir = tempDir();
  try {
    const one = new ClickSpool(join(dir, 'a'));
    one.append(batch(10));
    const record = one.bytes;
    const spool = new ClickSpool(join(dir, 'b'), record * 3 + 10, record * 2);
    assert.equal(spool.append(batch(10)), true);
    assert.equal(spool.append(batch(10)), true);
    assert.equal(spool.append(batch(10)), true);
    assert.equal(spool.size, 2, 'a segment holds what fits its bound');
    assert.equal(spool.append(batch(10)), false);
    assert.equal(spool.bytes, record * 3);
    // Opened again (a restart), it finds what is there, oldest first.
    const again = new ClickSpool(join(dir, 'b'), record * 3 + 10, record * 2);
    assert.equal(again.size, 2);
    assert.equal(again.bytes, record * 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a damaged tail (a kill -9 mid-append) is cut at the last whole record when opened; appends go on after it', async () => {
  const dir = tempDir();
  try {
    const path = join(dir, 'spool');
    const spool = new ClickSpool(path);
    spool.append(batch(2));
    spool.append(batch(3));
    const [name] = readdirSync(path);
    const whole = statSync(join(path, name!)).size;
    appendFileSync(join(path, name!), '0123456789abcdef {"since":1,"clicks":[{"link');
    const reopened = new ClickSpool(path);
    assert.equal(statSync(join(path, name!)).size, whole);
    assert.equal(reopened.bytes, whole);
    reopened.append(batch(1));
    const segments = await Promise.all(readdirSync(path).map((n) => reopened.read(n.replace(/\.clicks$/, ''))));
    assert.deepEqual(
      segments.map((s) => s.clicks),
      [5, 1],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a record whose checksum fails ends the segment there: nothing after it is trusted', async () => {
  const dir = tempDir();
  try {
    const path = join(dir, 'spool');
    const spool = new ClickSpool(path);
    spool.append(batch(2));
    const [name] = readdirSync(path);
    appendFileSync(join(path, name!), '0000000000000000 {"since":1,"counts":[],"rotations":[],"clicks":[]}\n');
    spool.append(batch(3));
    const reopened = new ClickSpool(path);
    assert.equal((await reopened.read(reopened.oldest()!)).clicks, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
