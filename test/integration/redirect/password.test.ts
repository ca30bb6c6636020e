import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { assertSafePage, clicksOf, cookiePair, createLink, setCookie, setCookies, visit } from './visitor-support.ts';

/** A password form: 200/403/429 page with the password field, never the destination. */
function assertForm(res: { status: number; text: string }, status: number, destination: string): void {
  assert.equal(res.status, status, res.text);
  assert.match(res.text, /<form method="post" action="">/);
  assert.match(res.text, /<input type="password" id="password" name="password"/);
  assert.ok(!res.text.includes(destination), 'the form gave the destination away');
}

async function unlock(h: Harness, alias: string, password: string): Promise<string> {
  const res = await visit(h, 'POST', `/${alias}`, { form: { password } });
  assert.equal(res.status, 200, res.text);
  const line = setCookies(res).find((c) => c.startsWith('lp_unlock_'));
  assert.ok(line, 'no unlock cookie');
  return cookiePair(line);
}

onEachEngine('redirect password', (h) => {
  test('GET shows the form and counts nothing; a wrong answer is a 403 form with an error and no cookie', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/secret-place', password: 'opensesame' });
    assert.equal(link.password, true);

    const form = await visit(h(), 'GET', `/${link.alias}`);
    assertForm(form, 200, 'secret-place');
    assertSafePage(form, 'password form');
    assert.equal(form.headers.get('location'), null);
    assert.equal(form.headers.get('cache-control'), 'no-store');
    assert.deepEqual(setCookies(form), []);
    assert.doesNotMatch(form.text, /role="alert"/);

    const wrong = await visit(h(), 'POST', `/${link.alias}`, { form: { password: 'nope' } });
    assertForm(wrong, 403, 'secret-place');
    assertSafePage(wrong, 'wrong password');
    assert.match(wrong.text, /<p class="error" id="password-error" role="alert">Wrong password/);
    assert.deepEqual(setCookies(wrong), []);
    assert.equal(await clicksOf(h(), key, link.id), 0);
  });

  test('the right answer sets a signed HttpOnly cookie for that link and answers the onward page, one click', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/behind?x=1', password: 'opensesame' });
    const res = await visit(h(), 'POST', `/${link.alias}?utm_source=mail`, { form: { password: 'opensesame' } });
    assert.equal(res.status, 200, res.text);
    assertSafePage(res, 'onward page');
    const line = setCookie(res, `lp_unlock_${link.id}`);
    assert.ok(line, `no lp_unlock_${link.id} cookie in ${JSON.stringify(setCookies(res))}`);
    assert.match(line, /;\s*HttpOnly/i);
    assert.match(line, /;\s*Path=\//i);
    assert.match(line, /;\s*SameSite=Lax/i);
    assert.match(line, /;\s*Max-Age=\d+/i);
    assert.doesNotMatch(line, /opensesame/);
    const value = cookiePair(line).split('=')[1]!;
    assert.ok(value.length >= 32, 'the cookie value is not a signature');
    // The destination, with the visit's query merged in, is where the page goes.
    assert.ok(res.text.includes('https://example.com/behind?x=1&amp;utm_source=mail'), res.text);
    assert.equal(await clicksOf(h(), key, link.id), 1);

    // With the cookie, the link is a plain redirect from now on.
    const again = await visit(h(), 'GET', `/${link.alias}`, { cookie: cookiePair(line) });
    assert.equal(again.status, 302, again.text);
    assert.equal(again.headers.get('location'), 'https://example.com/behind?x=1');
    assert.equal(await clicksOf(h(), key, link.id), 2);
  });

  test("a tampered cookie, or another link's cookie, does not unlock", async () => {
    const { key } = await h().account();
    const a = await createLink(h(), key, { url: 'https://example.com/a-dest', password: 'same-password' });
    const b = await createLink(h(), key, { url: 'https://example.com/b-dest', password: 'same-password' });
    const cookieA = await unlock(h(), a.alias, 'same-password');
    assert.ok(cookieA.startsWith(`lp_unlock_${a.id}=`));
    const valueA = cookieA.slice(cookieA.indexOf('=') + 1);

    const flipped = valueA.slice(0, -1) + (valueA.endsWith('A') ? 'B' : 'A');
    const attempts = [
      `lp_unlock_${a.id}=${flipped}`,
      `lp_unlock_${a.id}=${valueA.slice(0, -2)}`,
      `lp_unlock_${a.id}=`,
      `lp_unlock_${b.id}=${valueA}`, // A's signature under B's name
      cookieA, // A's cookie as is, on B
    ];
    for (const cookie of attempts.slice(0, 3))
      assertForm(await visit(h(), 'GET', `/${a.alias}`, { cookie }), 200, 'a-dest');
    for (const cookie of attempts.slice(3))
      assertForm(await visit(h(), 'GET', `/${b.alias}`, { cookie }), 200, 'b-dest');
    assertForm(await visit(h(), 'GET', `/${b.alias}/+`, { cookie: `lp_unlock_${b.id}=${valueA}` }), 200, 'b-dest');

    // The genuine cookie still works, on its own link only.
    const ok = await visit(h(), 'GET', `/${a.alias}`, { cookie: cookieA });
    assert.equal(ok.status, 302);
    assert.equal(ok.headers.get('location'), 'https://example.com/a-dest');
    assert.equal(await clicksOf(h(), key, b.id), 0);
  });

  test('changing the password through the API invalidates earlier cookies', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/rotating', password: 'first-one' });
    const old = await unlock(h(), link.alias, 'first-one');
    assert.equal((await visit(h(), 'GET', `/${link.alias}`, { cookie: old })).status, 302);

    const put = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { password: 'second-one' } });
    assert.equal(put.status, 200, put.text);
    assertForm(await visit(h(), 'GET', `/${link.alias}`, { cookie: old }), 200, 'rotating');
    assertForm(await visit(h(), 'POST', `/${link.alias}`, { form: { password: 'first-one' } }), 403, 'rotating');
    const fresh = await unlock(h(), link.alias, 'second-one');
    assert.notEqual(fresh, old);
    assert.equal((await visit(h(), 'GET', `/${link.alias}`, { cookie: fresh })).status, 302);

    // Clearing the password opens the link to everyone.
    const cleared = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { password: '' } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.data.password, false);
    const open = await visit(h(), 'GET', `/${link.alias}`);
    assert.equal(open.status, 302);
  });

  test('attempts are limited per client and link: the 6th wrong try in a minute is a 429, the right one too', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/guarded', password: 'letmein' });
    const other = await createLink(h(), key, { url: 'https://example.com/neighbour', password: 'letmein' });
    for (let i = 1; i <= 5; i++) {
      assertForm(await visit(h(), 'POST', `/${link.alias}`, { form: { password: `guess-${i}` } }), 403, 'guarded');
    }
    const sixth = await visit(h(), 'POST', `/${link.alias}`, { form: { password: 'guess-6' } });
    assertForm(sixth, 429, 'guarded');
    assertSafePage(sixth, 'rate-limited form');
    const wait = Number(sixth.headers.get('retry-after'));
    assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After: ${sixth.headers.get('retry-after')}`);
    assert.match(sixth.text, /Too many attempts, try again in \d+ seconds?\./);

    const right = await visit(h(), 'POST', `/${link.alias}`, { form: { password: 'letmein' } });
    assertForm(right, 429, 'guarded');
    assert.deepEqual(setCookies(right), []);
    assert.ok(Number(right.headers.get('retry-after')) >= 1);
    // The preview's form is the same door, with the same lock.
    assertForm(await visit(h(), 'POST', `/${link.alias}/+`, { form: { password: 'letmein' } }), 429, 'guarded');
    assert.equal(await clicksOf(h(), key, link.id), 0);

    // Another link, same client: untouched.
    assertForm(await visit(h(), 'POST', `/${other.alias}`, { form: { password: 'wrong' } }), 403, 'neighbour');
    const fine = await visit(h(), 'POST', `/${other.alias}`, { form: { password: 'letmein' } });
    assert.equal(fine.status, 200);
    assert.ok(setCookie(fine, `lp_unlock_${other.id}`));
  });

  test('the preview /{alias}/+ asks for the password too, and shows the destination once unlocked', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, {
      url: 'https://example.com/preview-target',
      password: 'peek',
      title: 'Hidden page',
    });
    const ask = await visit(h(), 'GET', `/${link.alias}/+`);
    assertForm(ask, 200, 'preview-target');
    assert.ok(!ask.text.includes('Hidden page'), 'the preview gave the title away');
    assertSafePage(ask, 'preview password form');

    assertForm(await visit(h(), 'POST', `/${link.alias}/+`, { form: { password: 'nope' } }), 403, 'preview-target');
    const shown = await visit(h(), 'POST', `/${link.alias}/+`, { form: { password: 'peek' } });
    assert.equal(shown.status, 200);
    assert.ok(shown.text.includes('https://example.com/preview-target'));
    assert.ok(shown.text.includes('Hidden page'));
    const line = setCookie(shown, `lp_unlock_${link.id}`);
    assert.ok(line);
    const withCookie = await visit(h(), 'GET', `/${link.alias}/+`, { cookie: cookiePair(line) });
    assert.equal(withCookie.status, 200);
    assert.ok(withCookie.text.includes('https://example.com/preview-target'));
    // Previews never count.
    assert.equal(await clicksOf(h(), key, link.id), 0);
  });

  test('HEAD of a locked link reveals nothing and counts nothing', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/headless', password: 'x-y-z' });
    const head = await visit(h(), 'HEAD', `/${link.alias}`);
    assert.notEqual(head.status, 302);
    assert.equal(head.headers.get('location'), null);
    assert.equal(await clicksOf(h(), key, link.id), 0);
  });
});
