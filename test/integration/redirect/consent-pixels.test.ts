import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import type { Reply } from '../../support/harness.ts';
import {
  BOT_UA,
  IPHONE_UA,
  assertSafePage,
  clicksOf,
  cookiePair,
  createLink,
  createPixel,
  cspSources,
  setCookie,
  setCookies,
  visit,
} from './visitor-support.ts';

// Each vendor: the loader its snippet fetches, and the script host the CSP must allow for it.
const VENDORS = {
  adroll: { loader: 'https://s.adroll.com/j/', script: 'https://s.adroll.com' },
  bing: { loader: 'https://bat.bing.com/bat.js', script: 'https://bat.bing.com' },
  facebook: { loader: 'https://connect.facebook.net/en_US/fbevents.js', script: 'https://connect.facebook.net' },
  'google-ads': { loader: 'https://www.googletagmanager.com/gtag/js?id=', script: 'https://www.googletagmanager.com' },
  'google-analytics': {
    loader: 'https://www.googletagmanager.com/gtag/js?id=',
    script: 'https://*.googletagmanager.com',
  },
  'google-tag-manager': {
    loader: 'https://www.googletagmanager.com/gtm.js?id=',
    script: 'https://www.googletagmanager.com',
  },
  linkedin: { loader: 'https://snap.licdn.com/li.lms-analytics/insight.min.js', script: 'https://snap.licdn.com' },
  pinterest: { loader: 'https://s.pinimg.com/ct/core.js', script: 'https://s.pinimg.com' },
  quora: { loader: 'https://a.quora.com/qevents.js', script: 'https://a.quora.com' },
  twitter: { loader: 'https://static.ads-twitter.com/uwt.js', script: 'https://static.ads-twitter.com' },
} as const;

function assertConsentPage(res: Reply): void {
  assert.equal(res.status, 200, res.text);
  assert.match(res.text, /<button type="submit" name="consent" value="yes">Accept<\/button>/);
  assert.match(res.text, /<button type="submit" name="consent" value="no"[^>]*>Decline<\/button>/);
  assert.equal(res.headers.get('location'), null);
  assert.deepEqual(setCookies(res), []);
  assertSafePage(res, 'consent page');
  assert.deepEqual(cspSources(res, 'script-src'), [], 'the consent page must not allow vendor scripts');
  assert.ok(!res.text.includes('fbevents.js'), 'a pixel loaded before consent');
}

/** A 200 page that sends the visitor to `destination`, with or without the facebook pixel. */
function assertOnwardPage(res: Reply, destination: string, withFacebook: boolean): void {
  assert.equal(res.status, 200, res.text);
  assertSafePage(res, 'pixel page');
  assert.ok(res.text.includes(`location.replace(u)`), 'no redirect script');
  assert.ok(
    res.text.includes(JSON.stringify(destination)),
    `destination ${destination} not in the script:\n${res.text}`,
  );
  assert.ok(
    res.text.includes(`<a href="${destination.replaceAll('&', '&amp;')}">`),
    'no visible link to the destination',
  );
  assert.equal(res.text.includes('fbq(\'init\',"fb123456")'), withFacebook, 'facebook snippet presence');
  assert.equal(
    cspSources(res, 'script-src').includes('https://connect.facebook.net'),
    withFacebook,
    'facebook host in the CSP',
  );
}

async function pixelLink(h: Harness, key: string, extra: Record<string, unknown> = {}) {
  const px = await createPixel(h, key, 'facebook', 'fb123456', `fb-${Math.random().toString(36).slice(2, 10)}`);
  return createLink(h, key, { url: 'https://example.com/landing', pixels: [px.id], ...extra });
}

onEachEngine('pixels and consent (PIXEL_CONSENT=ask)', (h) => {
  test('a link with pixels asks first and counts nothing yet', async () => {
    const { key } = await h().account();
    const link = await pixelLink(h(), key);
    const res = await visit(h(), 'GET', `/${link.alias}`);
    assertConsentPage(res);
    assert.match(res.text, /Meta \(Facebook\)/);
    assert.equal(await clicksOf(h(), key, link.id), 0);
  });

  test('consent=yes: a 30-day cookie and the pixel page, one click; the cookie then skips the question', async () => {
    const { key } = await h().account();
    const link = await pixelLink(h(), key);
    const res = await visit(h(), 'POST', `/${link.alias}?utm_medium=qr`, { form: { consent: 'yes' } });
    assertOnwardPage(res, 'https://example.com/landing?utm_medium=qr', true);
    const line = setCookie(res, 'lp_consent');
    assert.ok(line, JSON.stringify(setCookies(res)));
    assert.equal(cookiePair(line), 'lp_consent=yes');
    assert.match(line, /;\s*Max-Age=2592000(;|$)/i);
    assert.match(line, /;\s*Path=\/(;|$)/i);
    assert.match(line, /;\s*SameSite=Lax/i);
    assert.equal(await clicksOf(h(), key, link.id), 1);

    const again = await visit(h(), 'GET', `/${link.alias}`, { cookie: 'lp_consent=yes' });
    assertOnwardPage(again, 'https://example.com/landing', true);
    assert.deepEqual(setCookies(again), []);
    assert.equal(await clicksOf(h(), key, link.id), 2);
  });

  test('consent=no: the onward page without pixels; the cookie then gives a plain 302', async () => {
    const { key } = await h().account();
    const link = await pixelLink(h(), key);
    const res = await visit(h(), 'POST', `/${link.alias}`, { form: { consent: 'no' } });
    assertOnwardPage(res, 'https://example.com/landing', false);
    assert.equal(cookiePair(setCookie(res, 'lp_consent') ?? ''), 'lp_consent=no');
    assert.match(setCookie(res, 'lp_consent')!, /Max-Age=2592000/i);
    const again = await visit(h(), 'GET', `/${link.alias}`, { cookie: 'lp_consent=no' });
    assert.equal(again.status, 302);
    assert.equal(again.headers.get('location'), 'https://example.com/landing');
    assert.equal(again.headers.get('cache-control'), 'no-store');
    assert.equal(await clicksOf(h(), key, link.id), 2);
  });

  test('DNT: 1 and Sec-GPC: 1 mean a plain 302: no question, no pixels, even with consent given', async () => {
    const { key } = await h().account();
    const link = await pixelLink(h(), key);
    for (const headers of [{ dnt: '1' }, { 'sec-gpc': '1' }] as Record<string, string>[]) {
      for (const cookie of [undefined, 'lp_consent=yes']) {
        const res = await visit(h(), 'GET', `/${link.alias}`, { headers, ...(cookie ? { cookie } : {}) });
        assert.equal(res.status, 302, `${JSON.stringify(headers)} ${cookie}: ${res.text}`);
        assert.equal(res.headers.get('location'), 'https://example.com/landing');
      }
      // Even an explicit yes posted with the signal set does not load pixels.
      const posted = await visit(h(), 'POST', `/${link.alias}`, { headers, form: { consent: 'yes' } });
      assertOnwardPage(posted, 'https://example.com/landing', false);
    }
    const dnt0 = await visit(h(), 'GET', `/${link.alias}`, { headers: { dnt: '0' } });
    assertConsentPage(dnt0);
    assert.equal(await clicksOf(h(), key, link.id), 6);
  });

  test('bots get a plain 302 and never a pixel', async () => {
    const { key } = await h().account();
    const link = await pixelLink(h(), key);
    for (const cookie of [undefined, 'lp_consent=yes']) {
      const res = await visit(h(), 'GET', `/${link.alias}`, { ua: BOT_UA, ...(cookie ? { cookie } : {}) });
      assert.equal(res.status, 302, res.text);
      assert.equal(res.headers.get('location'), 'https://example.com/landing');
    }
  });

  test("the pixel page sends the visitor to the targeted destination, not the link's url", async () => {
    const { key } = await h().account();
    const link = await pixelLink(h(), key, {
      target_type: 2,
      platform: [
        { key: 'iOS', value: 'https://ios.example.com/app?from=lp' },
        { key: 'Android', value: 'https://android.example.com/' },
      ],
    });
    assertConsentPage(await visit(h(), 'GET', `/${link.alias}`, { ua: IPHONE_UA }));
    const yes = await visit(h(), 'POST', `/${link.alias}`, { ua: IPHONE_UA, form: { consent: 'yes' } });
    assertOnwardPage(yes, 'https://ios.example.com/app?from=lp', true);
    const remembered = await visit(h(), 'GET', `/${link.alias}`, { ua: IPHONE_UA, cookie: 'lp_consent=yes' });
    assertOnwardPage(remembered, 'https://ios.example.com/app?from=lp', true);
    const desktop = await visit(h(), 'GET', `/${link.alias}`, { cookie: 'lp_consent=yes' });
    assertOnwardPage(desktop, 'https://example.com/landing', true);
  });

  test('a password link with pixels: the password first, then the question, then the pixel page', async () => {
    const { key } = await h().account();
    const link = await pixelLink(h(), key, { password: 'both-gates' });
    const unlocked = await visit(h(), 'POST', `/${link.alias}`, { form: { password: 'both-gates' } });
    assertConsentPage({ ...unlocked, headers: new Headers([...unlocked.headers].filter(([n]) => n !== 'set-cookie')) });
    const unlock = cookiePair(setCookie(unlocked, `lp_unlock_${link.id}`)!);
    const asked = await visit(h(), 'POST', `/${link.alias}`, { cookie: unlock, form: { consent: 'yes' } });
    assertOnwardPage(asked, 'https://example.com/landing', true);
    // Consent without the unlock cookie does not get past the password.
    const sneaky = await visit(h(), 'POST', `/${link.alias}`, { form: { consent: 'yes' } });
    assert.match(sneaky.text, /name="password"/);
    assert.ok(!sneaky.text.includes('example.com/landing'));
    assert.equal(await clicksOf(h(), key, link.id), 1);
  });

  test("all ten pixel types appear on one link's page, each with its vendor hosts in the CSP", async () => {
    const { key } = await h().account();
    const ids: number[] = [];
    for (const type of Object.keys(VENDORS))
      ids.push((await createPixel(h(), key, type, `ID_${type.replace(/-/g, '_')}`, `all-${type}`)).id);
    const link = await createLink(h(), key, { url: 'https://example.com/ten', pixels: ids });
    assert.equal(link.pixels.length, 10);
    const consent = await visit(h(), 'GET', `/${link.alias}`);
    assertConsentPage(consent);
    for (const name of [
      'AdRoll',
      'Bing',
      'Facebook',
      'Google Ads',
      'Google Analytics',
      'Google Tag Manager',
      'LinkedIn',
      'Pinterest',
      'Quora',
      'Twitter',
    ]) {
      assert.ok(consent.text.includes(name), `consent page does not name ${name}`);
    }
    const page = await visit(h(), 'GET', `/${link.alias}`, { cookie: 'lp_consent=yes' });
    assert.equal(page.status, 200);
    assertSafePage(page, 'ten-pixel page');
    const scriptSrc = cspSources(page, 'script-src');
    for (const [type, vendor] of Object.entries(VENDORS)) {
      assert.ok(page.text.includes(vendor.loader), `${type}: loader ${vendor.loader} missing`);
      assert.ok(page.text.includes(`"ID_${type.replace(/-/g, '_')}"`), `${type}: pixel id missing`);
      assert.ok(
        scriptSrc.includes(vendor.script),
        `${type}: ${vendor.script} not in script-src ${scriptSrc.join(' ')}`,
      );
    }
    // Each snippet is its own nonce-tagged script, plus the redirect script.
    assert.ok((page.text.match(/<script nonce=/g) ?? []).length >= 11);
    assert.ok(cspSources(page, 'img-src').includes('https://www.facebook.com'));
    assert.ok(cspSources(page, 'connect-src').includes('https://bat.bing.com'));
    assert.ok(page.text.includes('"https://example.com/ten"'));
  });
});

onEachEngine(
  'pixels with PIXEL_CONSENT=implied',
  (h) => {
    test('the pixel page straight away, targeted; DNT and bots still get a plain 302', async () => {
      const { key } = await h().account();
      const link = await pixelLink(h(), key, {
        target_type: 2,
        platform: [{ key: 'iOS', value: 'https://ios.example.com/x' }],
      });
      const res = await visit(h(), 'GET', `/${link.alias}`, { ua: IPHONE_UA });
      assertOnwardPage(res, 'https://ios.example.com/x', true);
      assert.deepEqual(setCookies(res), []);
      assertOnwardPage(await visit(h(), 'GET', `/${link.alias}`), 'https://example.com/landing', true);
      // A remembered "no" is still honoured.
      assert.equal((await visit(h(), 'GET', `/${link.alias}`, { cookie: 'lp_consent=no' })).status, 302);
      assert.equal((await visit(h(), 'GET', `/${link.alias}`, { headers: { dnt: '1' } })).status, 302);
      assert.equal((await visit(h(), 'GET', `/${link.alias}`, { ua: BOT_UA })).status, 302);
      assert.equal(await clicksOf(h(), key, link.id), 4);
    });
  },
  { env: { PIXEL_CONSENT: 'implied' } },
);

onEachEngine(
  'pixels with PIXEL_CONSENT=never',
  (h) => {
    test('a plain 302 whatever the cookie says', async () => {
      const { key } = await h().account();
      const link = await pixelLink(h(), key);
      for (const cookie of [undefined, 'lp_consent=yes']) {
        const res = await visit(h(), 'GET', `/${link.alias}`, cookie ? { cookie } : {});
        assert.equal(res.status, 302, res.text);
        assert.equal(res.headers.get('location'), 'https://example.com/landing');
      }
      const posted = await visit(h(), 'POST', `/${link.alias}`, { form: { consent: 'yes' } });
      assertOnwardPage(posted, 'https://example.com/landing', false);
      assert.equal(await clicksOf(h(), key, link.id), 3);
    });
  },
  { env: { PIXEL_CONSENT: 'never' } },
);
