// api.md §7 steps 2–3: disabled and expired links, and the clicks they (do not) count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { UA, assertPage, clickCounts, makeLink, readLink, redirectsTo, visit } from './redirect-support.ts';

/** expiration_date and expiration_time (UTC, the account's default zone) `days` from now. */
function expiry(days: number): { expiration_date: string; expiration_time: string } {
  const iso = new Date(Date.now() + days * 86_400_000).toISOString();
  return { expiration_date: iso.slice(0, 10), expiration_time: iso.slice(11, 16) };
}

onEachEngine('redirect: disabled and expired links', (h) => {
  test('a disabled link answers a 404-class page saying so, and counts nothing', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/off', disabled: 1 });
    const res = await visit(h(), `/${link.alias}`);
    assertPage(res, 404, 'disabled');
    assert.ok(res.status >= 400 && res.status < 500);
    assertPage(await visit(h(), `/${link.alias}`, { 'user-agent': UA.googlebot }), 404, 'disabled');
    assertPage(await visit(h(), `/${link.alias}/+`), 404, 'disabled');
    assert.deepEqual(await clickCounts(h(), link.id), { human: 0, bot: 0 });
    assert.equal((await readLink(h(), key, link.id)).clicks, 0);
  });

  test('disabling and enabling take effect on the next visit', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/toggle' });
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/toggle');
    const off = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { disabled: 1 } });
    assert.equal(off.status, 200, off.text);
    assertPage(await visit(h(), `/${link.alias}`), 404, 'disabled');
    const on = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { disabled: 0 } });
    assert.equal(on.status, 200, on.text);
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/toggle');
    assert.deepEqual(await clickCounts(h(), link.id), { human: 2, bot: 0 });
  });

  test('past its end date, a link goes to expiration_url, or answers the 410 page', async () => {
    const { key } = await h().account();
    const toUrl = await makeLink(h(), key, {
      url: 'https://example.com/old',
      expiration_url: 'https://example.com/gone',
      ...expiry(-1),
    });
    const to410 = await makeLink(h(), key, { url: 'https://example.com/old', ...expiry(-1) });
    const live = await makeLink(h(), key, { url: 'https://example.com/live', ...expiry(1) });

    const redirected = await visit(h(), `/${toUrl.alias}?utm_source=x`);
    assert.equal(redirected.status, 302);
    assert.equal(redirected.location, 'https://example.com/gone');
    assert.equal(redirected.headers['cache-control'], 'no-store');
    assertPage(await visit(h(), `/${to410.alias}`), 410, 'expired');
    assert.equal((await visit(h(), `/${to410.alias}`, {}, 'HEAD')).status, 410);
    assert.equal(await redirectsTo(h(), `/${live.alias}`), 'https://example.com/live');

    assert.deepEqual(await clickCounts(h(), toUrl.id), { human: 0, bot: 0 });
    assert.deepEqual(await clickCounts(h(), to410.id), { human: 0, bot: 0 });
    assert.equal((await readLink(h(), key, toUrl.id)).clicks, 0);
  });

  test('an end date moved into the past expires a link that was visited', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/soon', ...expiry(1) });
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/soon');
    const put = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: expiry(-1) });
    assert.equal(put.status, 200, put.text);
    assertPage(await visit(h(), `/${link.alias}`), 410, 'expired');
    assert.deepEqual(await clickCounts(h(), link.id), { human: 1, bot: 0 });
  });

  test('after expiration_clicks visits, a link is expired', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/capped', expiration_clicks: 3 });
    for (let i = 0; i < 3; i++) assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/capped');
    assertPage(await visit(h(), `/${link.alias}`), 410, 'expired');
    assertPage(await visit(h(), `/${link.alias}`), 410, 'expired');
    assert.deepEqual(await clickCounts(h(), link.id), { human: 3, bot: 0 });
    const record = await readLink(h(), key, link.id);
    assert.equal(record.clicks, 3);
    // Listed as expired (status 2) once the cap is reached.
    const expired = await h().request('GET', '/api/v1/links?status=2&per_page=100', { key });
    assert.ok(
      expired.body.data.some((l: { id: number }) => l.id === link.id),
      expired.text,
    );

    const withUrl = await makeLink(h(), key, {
      url: 'https://example.com/capped',
      expiration_clicks: 1,
      expiration_url: 'https://example.com/sold-out',
    });
    assert.equal(await redirectsTo(h(), `/${withUrl.alias}`), 'https://example.com/capped');
    assert.equal(await redirectsTo(h(), `/${withUrl.alias}`), 'https://example.com/sold-out');
    assert.deepEqual(await clickCounts(h(), withUrl.id), { human: 1, bot: 0 });
  });

  test('bots and HEAD do not use up a click cap', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/capped', expiration_clicks: 2 });
    assert.equal(
      await redirectsTo(h(), `/${link.alias}`, { 'user-agent': UA.googlebot }),
      'https://example.com/capped',
    );
    assert.equal((await visit(h(), `/${link.alias}`, {}, 'HEAD')).status, 302);
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/capped');
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/capped');
    assertPage(await visit(h(), `/${link.alias}`), 410, 'expired');
    assert.deepEqual(await clickCounts(h(), link.id), { human: 2, bot: 1 });
    assert.equal((await readLink(h(), key, link.id)).clicks, 2);
  });

  test('once the cap is reached, bots and HEAD get the expired answer too', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/capped', expiration_clicks: 1 });
    // Right after the last allowed visit, while the link is still cached with clicks = 0.
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/capped');
    assertPage(await visit(h(), `/${link.alias}`, { 'user-agent': UA.googlebot }), 410, 'expired');
    assert.equal((await visit(h(), `/${link.alias}`, {}, 'HEAD')).status, 410);
    assertPage(await visit(h(), `/${link.alias}`), 410, 'expired');
    assert.deepEqual(await clickCounts(h(), link.id), { human: 1, bot: 0 });
  });

  test('raising the cap of an expired link lets visits through again, up to the new cap', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, { url: 'https://example.com/more', expiration_clicks: 1 });
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/more');
    assertPage(await visit(h(), `/${link.alias}`), 410, 'expired');
    // No flush first: the click may still be buffered when the cap changes.
    const put = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { expiration_clicks: 3 } });
    assert.equal(put.status, 200, put.text);
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/more');
    assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://example.com/more');
    assertPage(await visit(h(), `/${link.alias}`), 410, 'expired');
    assert.equal((await clickCounts(h(), link.id)).human, 3);
  });
});
