import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { ManualClock, UA, createLink, visit } from '../stats/stats-support.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const clock = new ManualClock();
const DAY = '2026-03-10';
const IPS = { us: '8.8.8.8', gb: '81.2.69.160', de: '85.214.0.1' };
const SCRIPT = '<script>alert(1)</script>';

/** The numbers a page shows in its cards (data-stat), as numbers. */
function cardsOf(page: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of page.matchAll(/data-stat="(total|unique|bots)"[^>]*>([^<]*)</g))
    out[m[1]!] = Number(m[2]!.replace(/[^\d]/g, ''));
  return out;
}

/** A table row's header and count, its value a filter link or not (the owner's are). */
function rowOf(name: string, count: number): RegExp {
  return new RegExp(
    `<th scope="row">(?:<a [^>]*>(?:<span class="visually-hidden">[^<]*</span>)?)?${name}(?:</a>)?</th><td class="num">${count}</td>`,
  );
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

function rangeOf(page: string): { from: string; to: string } {
  const from = /data-range-from>([^<]+)</.exec(page)?.[1];
  const to = /data-range-to>([^<]+)</.exec(page)?.[1];
  assert.ok(from && to, 'the page names its range');
  return { from, to };
}

onEachEngine(
  'web: statistics pages',
  (h) => {
    let owner: WebClient;
    let ownerEmail: string;
    let key: string;
    let other: WebClient;
    let pub: Json;
    let priv: Json;
    let locked: Json;
    let locked2: Json;

    test('links in the three privacy modes, clicks from three countries', async () => {
      clock.set('2026-03-10T12:00:00Z');
      ({ client: owner, email: ownerEmail } = await signedUp(h().baseUrl));
      ({ apiKey: key } = await h().server.container.accounts.createKey(ownerEmail, 'test', TEST_ACTOR));
      ({ client: other } = await signedUp(h().baseUrl));
      pub = await createLink(h(), key, { privacy: 0, title: SCRIPT });
      priv = await createLink(h(), key, { privacy: 1 });
      locked = await createLink(h(), key, { privacy: 2, privacy_password: 'sesame-1' });
      locked2 = await createLink(h(), key, { privacy: 2, privacy_password: 'sesame-1' });
      await visit(h(), pub, { ip: IPS.us, referer: 'https://news.example.com/a', language: 'fr-FR' });
      await visit(h(), pub, { ip: IPS.gb });
      await visit(h(), pub, { ip: IPS.de, language: 'de-DE' });
      await visit(h(), pub, { ip: IPS.de, language: 'de-DE' });
      await visit(h(), locked, { ip: IPS.us });
      await h().server.container.visits.sink.flush();
      // Values no real click can carry (a city, a host with markup), written as rollups.
      await h()
        .server.container.storage.db.insertInto('click_rollups')
        .values([
          { link_id: pub.id, dimension: 'city', day: DAY, value: SCRIPT, count: 1 },
          { link_id: pub.id, dimension: 'referrer', day: DAY, value: `<img src=x onerror=alert(2)>`, count: 1 },
        ])
        .execute();
    });

    test('privacy 0: anyone sees the numbers, nothing of the owner, noindex, no cookie', async () => {
      const anonymous = new WebClient(h().baseUrl);
      // Anyone but the owner chooses among the presets: today is DAY.
      const res = await anonymous.get(`/stats/${pub.id}?range=today`);
      assert.equal(res.status, 200, res.text.slice(0, 500));
      assert.equal(res.headers.getSetCookie().length, 0, 'no cookie for an anonymous visitor');
      assert.match(res.text, /<meta name="robots" content="noindex">/);
      assert.ok(!res.text.includes(ownerEmail), 'no owner email');
      assert.ok(!res.text.includes('/links/'), 'no link to the owner’s app');
      assert.ok(!res.text.includes('name="_csrf"'), 'no form that needs a token');
      assert.deepEqual(cardsOf(res.text), { total: 4, unique: 3, bots: 0 });
      for (const path of [
        'countries',
        'cities',
        'referrers',
        'browsers',
        'platforms',
        'devices',
        'languages',
        'hours',
      ]) {
        const table = await anonymous.get(`/stats/${pub.id}/${path}?range=today`);
        assert.equal(table.status, 200, path);
        assert.equal(table.headers.getSetCookie().length, 0, path);
        assert.match(table.text, /noindex/);
      }
      const otherView = await other.get(`/stats/${pub.id}`);
      assert.equal(otherView.status, 200);
      assert.ok(!otherView.text.includes(ownerEmail));
    });

    test('privacy 1: 404 for anyone but the owner, exactly as an unknown link', async () => {
      const anonymous = new WebClient(h().baseUrl);
      const unknown = await anonymous.get('/stats/999999');
      for (const path of [`/stats/${priv.id}`, `/stats/${priv.id}/countries`, `/stats/${priv.id}/export/countries`]) {
        const res = await anonymous.get(path);
        assert.equal(res.status, 404, path);
        assert.equal(res.text.replace(/value="[^"]*"/g, ''), unknown.text.replace(/value="[^"]*"/g, ''));
        assert.equal((await other.get(path)).status, 404, path);
      }
      const mine = await owner.get(`/stats/${priv.id}`);
      assert.equal(mine.status, 200);
      assert.match(mine.text, /Edit link/);
    });

    test('an id past 32 bits is an unknown link on every statistics route, never a 500', async () => {
      const anonymous = new WebClient(h().baseUrl);
      for (const id of ['2147483648', '9999999999', '9999999999999999']) {
        for (const path of [`/stats/${id}`, `/stats/${id}/countries`, `/stats/${id}/export/countries`])
          assert.equal((await anonymous.get(path)).status, 404, path);
        assert.equal((await owner.get(`/stats/${id}`)).status, 404, id);
      }
    });

    test('privacy 2: a password form for others, the numbers for the owner', async () => {
      const anonymous = new WebClient(h().baseUrl);
      const form = await anonymous.get(`/stats/${locked.id}`);
      assert.equal(form.status, 200);
      assert.match(form.text, /action="\/stats\/\d+\/password"/);
      assert.ok(!form.text.includes('data-stat="total"'));
      assert.match((await other.get(`/stats/${locked.id}/countries`)).text, /name="password"/);
      const mine = await owner.get(`/stats/${locked.id}?from=${DAY}&to=${DAY}`);
      assert.equal(mine.status, 200);
      assert.deepEqual(cardsOf(mine.text), { total: 1, unique: 1, bots: 0 });
      const csv = await anonymous.get(`/stats/${locked.id}/export/countries`);
      assert.ok(!(csv.headers.get('content-type') ?? '').startsWith('text/csv'), 'no CSV while locked');
    });

    test('the password: missing CSRF 403, wrong 422, right 303 with a cookie for that link only', async () => {
      const visitor = new WebClient(h().baseUrl);
      const headers = { 'x-forwarded-for': '203.0.113.10' };
      await visitor.get(`/stats/${locked.id}`);
      assert.equal(
        (await visitor.post(`/stats/${locked.id}/password`, { password: 'sesame-1', _csrf: 'nope' }, { headers }))
          .status,
        403,
      );
      const wrong = await visitor.post(
        `/stats/${locked.id}/password`,
        { password: 'nope' },
        { from: `/stats/${locked.id}`, headers },
      );
      assert.equal(wrong.status, 422);
      assert.match(wrong.text, /class="field-error" id="f-password-error">The password is wrong\./);
      const right = await visitor.post(
        `/stats/${locked.id}/password`,
        { password: 'sesame-1', next: `/stats/${locked.id}/countries` },
        { from: `/stats/${locked.id}`, headers },
      );
      assert.equal(right.status, 303);
      assert.equal(right.location, `/stats/${locked.id}/countries`);
      const cookie = right.headers.getSetCookie().find((c) => c.startsWith(`lpx_stats_${locked.id}=`));
      assert.ok(cookie, 'the unlock cookie');
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, new RegExp(`Path=/stats/${locked.id}(;|$)`));
      const open = await visitor.get(`/stats/${locked.id}?from=${DAY}&to=${DAY}`);
      assert.equal(open.status, 200);
      assert.deepEqual(cardsOf(open.text), { total: 1, unique: 1, bots: 0 });
      // The cookie is for that link: the other link with the same password stays locked, even
      // when the cookie is presented under its name.
      const value = visitor.cookies.get(`lpx_stats_${locked.id}`)!;
      visitor.cookies.set(`lpx_stats_${locked2.id}`, value);
      assert.match((await visitor.get(`/stats/${locked2.id}`)).text, /name="password"/);
      // A new privacy_password locks everyone out again.
      const changed = await h().request('PUT', `/api/v1/links/${locked.id}`, {
        key,
        form: { privacy: 2, privacy_password: 'sesame-2' },
      });
      assert.equal(changed.status, 200, changed.text);
      assert.match((await visitor.get(`/stats/${locked.id}`)).text, /name="password"/);
    });

    test('the password: guesses are limited per address and link (429)', async () => {
      const guesser = new WebClient(h().baseUrl);
      const headers = { 'x-forwarded-for': '203.0.113.77' };
      const from = `/stats/${locked2.id}`;
      for (let i = 0; i < 5; i++)
        assert.equal(
          (await guesser.post(`/stats/${locked2.id}/password`, { password: `guess${i}` }, { from, headers })).status,
          422,
        );
      const limited = await guesser.post(`/stats/${locked2.id}/password`, { password: 'sesame-1' }, { from, headers });
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      assert.match(limited.text, /Too many attempts/);
      assert.ok(!limited.headers.getSetCookie().some((c) => c.startsWith('lpx_stats_')));
    });

    test('stored markup in a title, a referrer and a city comes out escaped', async () => {
      // The owner's pages: a value seen once is folded on anyone else's (stats-public.test.ts).
      const anonymous = new WebClient(h().baseUrl);
      const pages = await Promise.all([
        anonymous.get(`/stats/${pub.id}?range=today`),
        ...['/cities', '/referrers'].map((p) => owner.get(`/stats/${pub.id}${p}?from=${DAY}&to=${DAY}`)),
      ]);
      for (const page of pages) {
        assert.equal(page.status, 200);
        assert.ok(!page.text.includes('<script>alert'), 'no live script');
        assert.ok(!page.text.includes('<img src=x'), 'no live image');
      }
      assert.match(pages[0].text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
      assert.match(pages[1]!.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
      assert.match(pages[2]!.text, /&lt;img src=x onerror=alert\(2\)&gt;/);
    });

    test('the numbers equal the stats API’s for the same range', async () => {
      const api = await h().request('GET', `/api/v1/stats/${pub.id}?name=country&from=${DAY}&to=${DAY}`, { key });
      assert.equal(api.status, 200);
      const page = await owner.get(`/stats/${pub.id}/countries?from=${DAY}&to=${DAY}`);
      assert.equal(page.status, 200);
      assert.deepEqual(cardsOf((await owner.get(`/stats/${pub.id}?from=${DAY}&to=${DAY}`)).text), {
        total: api.body.stats.total,
        unique: api.body.stats.unique,
        bots: api.body.stats.bots,
      });
      assert.deepEqual(
        api.body.data.map((e: Json) => [e.value, e.count]),
        [
          ['DE', 2],
          ['GB', 1],
          ['US', 1],
        ],
      );
      // Country names in the viewer's language; the map drawn; each row's count in the table.
      assert.match(page.text, /<svg[^>]*class="chart-svg map-svg"/);
      for (const [name, count] of [
        ['Germany', 2],
        ['United Kingdom', 1],
        ['United States', 1],
      ] as const) {
        assert.match(page.text, rowOf(name, count), name);
      }
      // Growth against the period of the same length before: the 11th against the 10th.
      const next = await owner.get(`/stats/${pub.id}?from=2026-03-11&to=2026-03-11`);
      assert.match(next.text, /data-stat="growth">[-−]100%</);
      assert.match(next.text, /Mar 10, 2026 – Mar 10, 2026: 4 clicks/);
      const languages = await owner.get(`/stats/${pub.id}/languages?from=${DAY}&to=${DAY}`);
      assert.match(languages.text, rowOf('German', 2));
    });

    test('every figure once: the chart’s table behind “Show as table”, the map without its own, hours one way', async () => {
      const overview = (await owner.get(`/stats/${pub.id}?from=${DAY}&to=${DAY}`)).text;
      assert.equal(occurrences(overview, 'class="chart-table"'), 1, 'the chart’s table only');
      assert.match(
        overview,
        /<details class="chart-details"><summary>Show as table<\/summary><table class="chart-table">/,
      );
      assert.match(overview, /class="chart-svg map-svg"/);
      assert.equal(
        occurrences(overview, 'class="stats-table"'),
        6,
        'top countries, referrers, browsers, platforms, devices, languages',
      );
      assert.equal(occurrences(overview, 'data-stat="total"'), 1, 'the clicks figure in one element');
      assert.match(overview, />See all countries</);
      const countries = (await owner.get(`/stats/${pub.id}/countries?from=${DAY}&to=${DAY}`)).text;
      assert.match(countries, /class="chart-svg map-svg"/);
      assert.equal(occurrences(countries, 'class="chart-table"'), 0, 'the map prints no table: the list is the table');
      assert.equal(occurrences(countries, 'class="stats-table"'), 1);
      const hours = (await owner.get(`/stats/${pub.id}/hours?from=${DAY}&to=${DAY}`)).text;
      assert.equal(occurrences(hours, 'class="stats-table"'), 0, 'no second list of the 24 hours');
      assert.equal(occurrences(hours, 'class="chart-table"'), 1);
      // The visits were at 12:00 UTC: one format, the chart's, in its table and summary.
      assert.match(hours, /<th scope="row">12:00 PM<\/th><td>4<\/td>/);
      assert.ok(!hours.includes('12:00–12:59'), 'no second format of the hours');
    });

    test('filters: a clicked value filters headline, chart and cards, shown as a removable chip', async () => {
      const overview = (await owner.get(`/stats/${pub.id}?from=${DAY}&to=${DAY}`)).text;
      const href = `/stats/${pub.id}?from=${DAY}&amp;to=${DAY}&amp;country=DE`;
      assert.ok(
        overview.includes(
          `<a href="${href}" class="stats-filter-link" aria-label="Germany: filter by this country">Germany</a>`,
        ),
        'Germany filters',
      );
      const page = await owner.get(`/stats/${pub.id}?from=${DAY}&to=${DAY}&country=de`);
      assert.equal(page.status, 200);
      assert.deepEqual(cardsOf(page.text), { total: 2, unique: 0, bots: 0 });
      assert.match(page.text, /data-stat="unique">—</);
      assert.match(
        page.text,
        /<li class="stats-chip"><span>Country: Germany<\/span> <a class="stats-chip-remove" href="\/stats\/\d+\?from=2026-03-10&amp;to=2026-03-10">/,
      );
      assert.match(page.text, /Remove filter Country: Germany/);
      assert.match(page.text, rowOf('German', 2));
      assert.doesNotMatch(page.text, rowOf('French', 1), 'the languages card is filtered');
      assert.match(page.text, /<th scope="row">12:00 PM<\/th><td>2<\/td>/, 'the chart of the day’s hours');
      // The filter is kept by the range links and the tabs, and filters the tables.
      assert.ok(
        page.text.includes(`/stats/${pub.id}/languages?from=${DAY}&amp;to=${DAY}&amp;country=DE`),
        'the tab keeps it',
      );
      assert.ok(page.text.includes('country=DE&amp;range=today'), 'the presets keep it');
      const table = await owner.get(`/stats/${pub.id}/languages?from=${DAY}&to=${DAY}&country=DE`);
      assert.match(table.text, rowOf('German', 2));
      assert.doesNotMatch(table.text, rowOf('French', 1));
      const csv = await owner.get(`/stats/${pub.id}/export/languages?from=${DAY}&to=${DAY}&country=DE`);
      assert.equal(csv.text, 'value,count\r\nde,2\r\n');
      // Two filters together; a referrer nobody came from leaves nothing.
      const none = await owner.get(`/stats/${pub.id}?from=${DAY}&to=${DAY}&country=DE&referrer=news.example.com`);
      assert.deepEqual(cardsOf(none.text), { total: 0, unique: 0, bots: 0 });
      assert.match(none.text, /Remove all filters/);
      const us = await owner.get(`/stats/${pub.id}?from=${DAY}&to=${DAY}&referrer=news.example.com`);
      assert.deepEqual(cardsOf(us.text), { total: 1, unique: 0, bots: 0 });
    });

    test('filters: a bad value is the 422 page naming it, never a 500; public pages ignore filters', async () => {
      for (const query of [
        'country=USA',
        'country=%3Cb%3E',
        `referrer=${'a'.repeat(300)}`,
        'browser=a&browser=b',
        'device=%E2%80%AE',
      ]) {
        const res = await owner.get(`/stats/${pub.id}?from=${DAY}&to=${DAY}&${query}`);
        assert.equal(res.status, 422, query);
        assert.match(res.text, /class="error-summary"/, query);
        const name = query.slice(0, query.indexOf('='));
        assert.ok(
          res.text.includes(`The ${name} `) || res.text.includes(`The selected ${name}`),
          `${query} names ${name}`,
        );
      }
      const anonymous = new WebClient(h().baseUrl);
      for (const path of [`/stats/${pub.id}?range=today&country=DE`, `/stats/${pub.id}?range=today&country=USA`]) {
        const res = await anonymous.get(path);
        assert.equal(res.status, 200, path);
        assert.deepEqual(cardsOf(res.text), { total: 4, unique: 3, bots: 0 }, path);
        assert.ok(!res.text.includes('stats-chip'), 'no chip');
        assert.ok(!res.text.includes('stats-filter-link'), 'no value filters');
        assert.doesNotMatch(res.text, /href="[^"]*country=/, 'no link keeps it');
      }
      const csv = await anonymous.get(`/stats/${pub.id}/export/countries?range=today&country=DE`);
      assert.equal(csv.text, 'value,count\r\n(other),4\r\n');
    });

    test('search, sort and paging of a full table', async () => {
      const found = await owner.get(`/stats/${pub.id}/countries?from=${DAY}&to=${DAY}&search=g`);
      assert.match(found.text, /United Kingdom/);
      assert.doesNotMatch(found.text, rowOf('United States', 1), 'filtered out of the table');
      const min = await owner.get(`/stats/${pub.id}/countries?from=${DAY}&to=${DAY}&sort=min`);
      const table = min.text.slice(min.text.indexOf('class="stats-table"'));
      assert.ok(table.indexOf('United Kingdom') < table.indexOf('Germany'), 'fewest first');
    });

    test('CSV: the stats API’s header and rows for the owner; rare values folded for anyone else', async () => {
      const mine = await owner.get(`/stats/${pub.id}/export/countries?from=${DAY}&to=${DAY}`);
      assert.equal(mine.status, 200);
      assert.match(mine.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(
        mine.headers.get('content-disposition') ?? '',
        new RegExp(`attachment; filename="link-${pub.id}-country-${DAY}-${DAY}.csv"`),
      );
      assert.equal(mine.text, 'value,count\r\nDE,2\r\nGB,1\r\nUS,1\r\n');
      const api = await h().request('GET', `/api/v1/stats/${pub.id}?name=country&from=${DAY}&to=${DAY}&format=csv`, {
        key,
      });
      assert.equal(mine.text, api.text);
      const anonymous = new WebClient(h().baseUrl);
      const csv = await anonymous.get(`/stats/${pub.id}/export/countries?range=today`);
      assert.equal(csv.status, 200);
      assert.match(
        csv.headers.get('content-disposition') ?? '',
        new RegExp(`attachment; filename="link-${pub.id}-country-${DAY}-${DAY}.csv"`),
      );
      assert.equal(csv.text, 'value,count\r\n(other),4\r\n', 'three countries of fewer than five clicks each');
      assert.equal(csv.headers.getSetCookie().length, 0);
    });

    test('the API answers the owner only, whatever privacy says', async () => {
      const stranger = await h().account();
      assert.equal(
        (await h().request('GET', `/api/v1/stats/${pub.id}?name=country`, { key: stranger.key })).status,
        404,
      );
      assert.equal((await h().request('GET', `/api/v1/stats/${pub.id}?name=country`)).status, 401);
      assert.equal((await h().request('GET', `/api/v1/stats/${pub.id}?name=country`, { key })).status, 200);
    });

    test('range presets resolve in the owner’s time zone (Pacific/Auckland, UTC+13)', async () => {
      const kiwi = await h().account(undefined, 'Pacific/Auckland');
      const link = await createLink(h(), kiwi.key, { privacy: 0 });
      clock.set('2026-03-10T12:00:00Z'); // 01:00 on 11 March in Auckland
      const anonymous = new WebClient(h().baseUrl);
      const expect: Record<string, { from: string; to: string }> = {
        today: { from: '2026-03-11', to: '2026-03-11' },
        yesterday: { from: '2026-03-10', to: '2026-03-10' },
        last7: { from: '2026-03-05', to: '2026-03-11' },
        last30: { from: '2026-02-10', to: '2026-03-11' },
        thisMonth: { from: '2026-03-01', to: '2026-03-11' },
        lastMonth: { from: '2026-02-01', to: '2026-02-28' },
        all: { from: '2026-03-11', to: '2026-03-11' },
      };
      for (const [preset, range] of Object.entries(expect)) {
        const page = await anonymous.get(`/stats/${link.id}?range=${preset}`);
        assert.equal(page.status, 200, preset);
        assert.deepEqual(rangeOf(page.text), range, preset);
        assert.match(page.text, new RegExp(`href="/stats/${link.id}\\?range=${preset}" aria-current="true"`), preset);
      }
      assert.deepEqual(
        rangeOf((await anonymous.get(`/stats/${link.id}`)).text),
        expect.last30,
        'the default: the API’s 30 days',
      );
      // Days of one's own choosing are the owner's (stats-public.test.ts): on the owner's link, in UTC.
      const custom = await owner.get(`/stats/${pub.id}/hours?from=2026-01-01&to=2026-01-31`);
      assert.deepEqual(rangeOf(custom.text), { from: '2026-01-01', to: '2026-01-31' });
      assert.match(
        custom.text,
        /href="\/stats\/\d+\/countries\?from=2026-01-01&amp;to=2026-01-31"/,
        'the range kept in the links',
      );
      const bad = await owner.get(`/stats/${pub.id}?from=2026-02-30&to=2026-03-01`);
      assert.equal(bad.status, 422);
      assert.match(bad.text, /id="f-from-error"/);
      const reversed = await owner.get(`/stats/${pub.id}?from=2026-03-05&to=2026-03-01`);
      assert.equal(reversed.status, 422);
      assert.match(reversed.text, /id="f-to-error"/);
    });

    test('the overview’s chart has its CSV, as every other table does', async () => {
      const overview = (await owner.get(`/stats/${pub.id}?from=2026-03-09&to=${DAY}`)).text;
      assert.match(
        overview,
        /href="\/stats\/\d+\/export\/clicks\?from=2026-03-09&amp;to=2026-03-10" download>Download CSV</,
      );
      const csv = await owner.get(`/stats/${pub.id}/export/clicks?from=2026-03-09&to=${DAY}`);
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(csv.text, /2026-03-10,4/, csv.text);
      const oneDay = (await owner.get(`/stats/${pub.id}?from=${DAY}&to=${DAY}`)).text;
      assert.match(oneDay, /href="\/stats\/\d+\/export\/hours\?[^"]*" download>Download CSV</, 'one day: per hour');
    });

    test('bad ids and names: 404', async () => {
      for (const path of ['/stats/abc', '/stats/0', `/stats/${pub.id}/nope`, `/stats/${pub.id}/export/nope`]) {
        assert.equal((await owner.get(path)).status, 404, path);
      }
    });

    test('pages name devices and platforms as people do, and wrap a referrer after its dots; the CSV keeps what is stored', async () => {
      const mac = await createLink(h(), key, { privacy: 1 });
      await visit(h(), mac, { ua: UA.macFirefox, referer: 'https://subscriptions.newsletters.example.org/x' });
      await h().server.container.visits.sink.flush();
      const day = `from=${DAY}&to=${DAY}`;
      assert.match((await owner.get(`/stats/${mac.id}/platforms?${day}`)).text, rowOf('macOS', 1));
      assert.match((await owner.get(`/stats/${mac.id}/devices?${day}`)).text, rowOf('Desktop', 1));
      const referrers = (await owner.get(`/stats/${mac.id}/referrers?${day}`)).text;
      assert.match(referrers, rowOf('subscriptions\\.<wbr>newsletters\\.<wbr>example\\.<wbr>org', 1));
      const csv = await owner.get(`/stats/${mac.id}/export/platforms?${day}`);
      assert.match(csv.text, /OS X,1/, 'the export keeps the stored value, as the API does');
    });
  },
  { env: { TRUST_PROXY: 'true' }, overrides: { clock } },
);
