// Issue 14, finding 8: guesses sent at once must not all be checked. Each attempt is counted
// before the password hash is computed, so 100 concurrent wrong guesses get 5 checks (403) and
// 95 refusals (429), on /{alias} and its preview /{alias}/+ alike, with the attempts kept in
// memory and in Redis. The Redis runs fail, not skip, when Redis is unreachable.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ENGINES, onEachEngine, startHarness, type Harness } from '../../support/harness.ts';
import { clicksOf, createLink, setCookie, visit } from './visitor-support.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const GUESSES = 100;

/** The statuses of `n` wrong guesses posted at once, counted by status. */
async function guessAtOnce(h: Harness, paths: string[], n: number): Promise<Record<number, number>> {
  const replies = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      visit(h, 'POST', paths[i % paths.length]!, { form: { password: `guess-${i}` } }),
    ),
  );
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

function guessingSuite(h: () => Harness): void {
  test(`${GUESSES} wrong guesses at once on /{alias}: 5 checked (403), the rest refused (429)`, async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/vault', password: 'right-one' });
    assert.deepEqual(await guessAtOnce(h(), [`/${link.alias}`], GUESSES), { 403: 5, 429: GUESSES - 5 });
    const right = await visit(h(), 'POST', `/${link.alias}`, { form: { password: 'right-one' } });
    assert.equal(right.status, 429, 'the right password is refused too while the client is locked out');
    assert.equal(await clicksOf(h(), key, link.id), 0);
  });

  test(`${GUESSES} wrong guesses at once on /{alias}/+: 5 checked, the rest refused`, async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/vault', password: 'right-one' });
    assert.deepEqual(await guessAtOnce(h(), [`/${link.alias}/+`], GUESSES), { 403: 5, 429: GUESSES - 5 });
  });

  test('the link and its preview share one count', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/vault', password: 'right-one' });
    assert.deepEqual(await guessAtOnce(h(), [`/${link.alias}`, `/${link.alias}/+`], GUESSES), {
      403: 5,
      429: GUESSES - 5,
    });
  });

  test('the right password resets the count: its owner does not wait for earlier typos', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/vault', password: 'right-one' });
    assert.deepEqual(await guessAtOnce(h(), [`/${link.alias}`], 4), { 403: 4 });
    const right = await visit(h(), 'POST', `/${link.alias}`, { form: { password: 'right-one' } });
    assert.equal(right.status, 200, right.text);
    assert.ok(setCookie(right, `lp_unlock_${link.id}`));
    assert.deepEqual(await guessAtOnce(h(), [`/${link.alias}`], 10), { 403: 5, 429: 5 });
  });
}

onEachEngine('redirect password guessing, attempts in memory', guessingSuite);

// One prefix per engine: both runs number their links from 1, and the keys are client × link.
for (const engine of ENGINES) {
  describe(`redirect password guessing, attempts in Redis [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let harness: Harness | undefined;
    before(async () => {
      harness = await startHarness(engine.name, { env: { REDIS_URL, REDIS_PREFIX: `linkpix-test:${randomUUID()}:` } });
    });
    after(async () => {
      await harness?.close();
    });
    guessingSuite(() => harness!);
  });
}
