// Previews take turns: one per caller, PREVIEWS_PER_INSTANCE in all, refused beyond (never
// queued), and a turn given back however its preview ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PREVIEWS_PER_INSTANCE, PreviewTurns } from './preview-turns.ts';
import { TooManyAttemptsError } from '../shared/errors.ts';

/** A preview that runs until `finish` is called. */
function held() {
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve('answered');
    fail = reject;
  });
  return { work: () => done, finish, fail };
}

const refused = (e: unknown) => e instanceof TooManyAttemptsError && e.reason === undefined && e.retryAfterSeconds >= 1;

test('one preview at a time per caller: a second one is refused while the first runs, answered after', async () => {
  const turns = new PreviewTurns();
  const first = held();
  const running = turns.run('key:1', first.work);
  await assert.rejects(
    turns.run('key:1', async () => 'second'),
    refused,
  );
  first.finish();
  assert.equal(await running, 'answered');
  assert.equal(await turns.run('key:1', async () => 'again'), 'again');
});

test(`${PREVIEWS_PER_INSTANCE} previews at a time in all: the next caller is refused until one ends`, async () => {
  const turns = new PreviewTurns();
  const previews = Array.from({ length: PREVIEWS_PER_INSTANCE }, () => held());
  const running = previews.map((p, i) => turns.run(`key:${i}`, p.work));
  await assert.rejects(
    turns.run('key:other', async () => 'x'),
    refused,
  );
  previews[0]!.finish();
  await running[0];
  assert.equal(await turns.run('key:other', async () => 'now'), 'now');
  for (const p of previews.slice(1)) p.finish();
  await Promise.all(running);
});

test('a preview that fails gives its turn back', async () => {
  const turns = new PreviewTurns(1);
  const failing = held();
  const running = turns.run('key:1', failing.work);
  failing.fail(new Error('the reader thread failed'));
  await assert.rejects(running, /reader thread failed/);
  assert.equal(await turns.run('key:2', async () => 'free'), 'free');
});
