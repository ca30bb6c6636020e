// api.md §7 step 3: the click cap is exact under concurrent load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { clickCounts, makeLink, readLink, visit } from './redirect-support.ts';

onEachEngine('redirect: the exact click cap', (h) => {
  test('200 concurrent visits of a link capped at 50: exactly 50 reach the destination', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/capped', expiration_clicks: 50 });
    const replies = await Promise.all(Array.from({ length: 200 }, () => visit(h(), `/${link.alias}`)));
    const through = replies.filter((r) => r.status === 302 && r.location === 'https://example.com/capped');
    const refused = replies.filter((r) => r.status === 410);
    assert.equal(through.length, 50, `statuses: ${JSON.stringify(replies.map((r) => r.status))}`);
    assert.equal(refused.length, 150, 'every other visit gets the expired answer');
    for (const r of refused) assert.match(r.text, /expired/);

    assert.deepEqual(await clickCounts(h(), link.id), { human: 50, bot: 0 });
    assert.equal((await readLink(h(), key, link.id)).clicks, 50);
    const [row] = await h()
      .server.container.storage.db.selectFrom('links')
      .select('clicks')
      .where('id', '=', link.id)
      .execute();
    assert.equal(Number(row!.clicks), 50);
    // Still expired later, once the count comes from the database.
    assert.equal((await visit(h(), `/${link.alias}`)).status, 410);
  });

  test('with an expiration_url, the visits past the cap are sent there', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, {
      url: 'https://example.com/capped',
      expiration_clicks: 50,
      expiration_url: 'https://example.com/sold-out',
    });
    const replies = await Promise.all(Array.from({ length: 200 }, () => visit(h(), `/${link.alias}`)));
    assert.ok(
      replies.every((r) => r.status === 302),
      JSON.stringify(replies.map((r) => r.status)),
    );
    const where = replies.map((r) => r.location);
    assert.equal(where.filter((l) => l === 'https://example.com/capped').length, 50);
    assert.equal(where.filter((l) => l === 'https://example.com/sold-out').length, 150);
    assert.deepEqual(await clickCounts(h(), link.id), { human: 50, bot: 0 });
    assert.equal((await readLink(h(), key, link.id)).clicks, 50);
  });

  test('a cap reached on a rotating link stops the rotation too', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, {
      url: 'https://example.com/',
      expiration_clicks: 10,
      target_type: 4,
      rotation: [{ value: 'https://r0.example.com/' }, { value: 'https://r1.example.com/' }],
    });
    const replies = await Promise.all(Array.from({ length: 40 }, () => visit(h(), `/${link.alias}`)));
    const served = replies.filter((r) => r.status === 302).map((r) => r.location);
    assert.equal(served.length, 10);
    assert.equal(served.filter((l) => l === 'https://r0.example.com/').length, 5);
    assert.equal(served.filter((l) => l === 'https://r1.example.com/').length, 5);
    assert.equal(replies.filter((r) => r.status === 410).length, 30);
    assert.equal((await clickCounts(h(), link.id)).human, 10);
  });
});
