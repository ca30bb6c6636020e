// POST /api/v1/links/{id}/rules/preview takes turns (docs/api.md §18): one preview at a time per
// person (whichever of their keys asks), two per instance; beyond, 429 `Too Many Attempts.` with Retry-After, and the refused
// caller's next try, once the others are answered, is answered. The link holds enough clicks
// (written straight in SQL) that a preview runs long after the others have arrived: the requests
// of a test are sent at once and reach the server together, and a replay of CLICKS by the minute
// (the rules' time condition) lasts far longer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { seedClicks } from '../../support/click-seed.ts';
import { addMember, makeKey, makeWorkspace } from './workspaces-support.ts';

const CLICKS = 50_000;
const DAY_MS = 86_400_000;

/** A team's link with CLICKS clicks; `keys`: two keys of the owner, then a key each of two viewers. */
async function seededLink(h: Harness) {
  const owner = await h.account();
  const team = await makeWorkspace(h, owner);
  const keys = [await makeKey(h, owner, team.id), await makeKey(h, owner, team.id)];
  for (let i = 1; i < 3; i++) {
    const viewer = await h.account();
    await addMember(h, owner, team.id, viewer, 'viewer');
    keys.push(await makeKey(h, viewer, team.id));
  }
  const made = await h.request('POST', '/api/v1/links', { key: keys[0]!, json: { url: 'https://example.com/' } });
  assert.equal(made.status, 201, made.text);
  const linkId = made.body.data.id as number;
  await seedClicks(h.server.container.storage, {
    linkId,
    accountId: team.id,
    rows: CLICKS,
    newest: Date.now() - 60_000,
    stepMs: (20 * DAY_MS) / CLICKS,
  });
  return { linkId, keys };
}

const rules = [{ when: { country: ['US', 'DE'], time: { from: '09:00', to: '17:00' } }, url: 'https://a.example/' }];

onEachEngine('rules previews take turns', (h) => {
  let link: { linkId: number; keys: string[] };
  const preview = (key: string) =>
    h().request('POST', `/api/v1/links/${link.linkId}/rules/preview`, { key, json: { rules } });
  const refusal = (r: Awaited<ReturnType<typeof preview>>) => {
    assert.equal(r.status, 429, r.text);
    assert.deepEqual(r.body, { message: 'Too Many Attempts.', status: 429 });
    assert.ok(Number(r.headers.get('retry-after')) >= 1, String(r.headers.get('retry-after')));
  };

  test('one preview at a time per person: the others at once are 429 with Retry-After, and answered after', async () => {
    link ??= await seededLink(h());
    const [a, b, c] = await Promise.all([preview(link.keys[0]!), preview(link.keys[0]!), preview(link.keys[0]!)]);
    const answers = [a, b, c];
    assert.equal(answers.filter((r) => r.status === 200).length, 1, answers.map((r) => r.status).join());
    for (const r of answers.filter((r) => r.status !== 200)) refusal(r);
    const answered = answers.find((r) => r.status === 200)!;
    assert.equal(answered.body.data.clicks, CLICKS);
    assert.equal(answered.body.data.since, null);
    assert.equal((await preview(link.keys[0]!)).status, 200);
  });

  test('one turn per person across their keys: the second key is 429 while the first runs', async () => {
    link ??= await seededLink(h());
    const [first, second] = await Promise.all([preview(link.keys[0]!), preview(link.keys[1]!)]);
    assert.equal([first, second].filter((r) => r.status === 200).length, 1, `${first.status},${second.status}`);
    refusal([first, second].find((r) => r.status !== 200)!);
  });

  test('two previews at a time per instance: two people both run, a third person is 429 meanwhile, answered after', async () => {
    link ??= await seededLink(h());
    const people = [link.keys[0]!, link.keys[2]!, link.keys[3]!];
    const answers = await Promise.all(people.map((key) => preview(key)));
    assert.equal(answers.filter((r) => r.status === 200).length, 2, answers.map((r) => r.status).join());
    for (const r of answers.filter((r) => r.status !== 200)) refusal(r);
    for (const r of answers.filter((r) => r.status === 200)) assert.equal(r.body.data.clicks, CLICKS);
    const third = people[answers.findIndex((r) => r.status === 429)]!;
    assert.equal((await preview(third)).status, 200);
  });

  test('a refused draft (422) or another account’s link (404) takes no turn', async () => {
    link ??= await seededLink(h());
    const bad = await Promise.all(
      [0, 1, 2].map(() =>
        h().request('POST', `/api/v1/links/${link.linkId}/rules/preview`, {
          key: link.keys[0]!,
          json: { rules: 'nope' },
        }),
      ),
    );
    assert.deepEqual(
      bad.map((r) => r.status),
      [422, 422, 422],
    );
    const stranger = await h().account();
    const foreign = await h().request('POST', `/api/v1/links/${link.linkId}/rules/preview`, {
      key: stranger.key,
      json: { rules },
    });
    assert.equal(foreign.status, 404);
    assert.equal((await preview(link.keys[0]!)).status, 200);
  });
});
