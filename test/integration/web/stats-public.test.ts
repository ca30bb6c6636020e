// Issue 30 (findings 2 and 3): statistics are private unless their owner says otherwise, and a
// public statistics page names no withheld destination and no visitor. On both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { ManualClock, UA, createLink, visit } from '../stats/stats-support.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const NOON = '2026-03-10T12:00:00Z';
const clock = new ManualClock();
const INTRANET = 'intranet.victim-corp.example';

/** Five visitors alike (Windows, Chrome, English, from the US, sent by a news site), and one apart. */
async function sixVisits(h: Harness, link: Json): Promise<void> {
  for (let i = 0; i < 5; i++)
    await visit(h, link, { ip: '8.8.8.8', language: 'en-US', referer: 'https://news.example.com/a' });
  await visit(h, link, {
    ip: '81.2.69.160',
    ua: UA.iphone,
    language: 'fr-FR',
    referer: `https://${INTRANET}/wiki/launch`,
  });
  await h.server.container.visits.sink.flush();
}

/**
 * The row of a value in a page's tables: `<th scope="row">label</th><td class="num">count</td>`;
 * the owner's label is a filter link, and a host may wrap after its dots (`<wbr>`).
 */
const row = (label: string, count: number) =>
  new RegExp(
    `<th scope="row"[^>]*>(?:<a [^>]*>(?:<span class="visually-hidden">[^<]*</span>)?)?${label.replaceAll('\\.', '\\.(?:<wbr>)?')}(?:</a>)?</th><td class="num">${count}</td>`,
  );

/** What pages call a stored device or platform value (the API's). */
const PAGE_NAMES: Record<string, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet', 'OS X': 'macOS' };

function cardsOf(page: string): Record<string, string> {
  return Object.fromEntries(
    [...page.matchAll(/data-stat="(total|unique|bots)"[^>]*>([^<]*)</g)].map((m) => [m[1]!, m[2]!]),
  );
}

async function multipart(file: string, format: string) {
  const form = new FormData();
  form.append('format', format);
  form.append('file', new Blob([file]), 'links.csv');
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { body: await request.arrayBuffer(), headers: { 'content-type': request.headers.get('content-type')! } };
}

onEachEngine(
  'web: public statistics protect their visitors',
  (h) => {
    let owner: WebClient;
    let key: string;
    const api = (method: string, path: string, form?: Record<string, unknown>) =>
      h().request(method, path, { key, ...(form ? { form } : {}) });
    const linkOf = async (id: number): Promise<Json> => (await api('GET', `/api/v1/links/${id}`)).body.data;

    test('setup: an account signed in on the web, with an API key', async () => {
      clock.set(NOON);
      const made = await signedUp(h().baseUrl);
      owner = made.client;
      ({ apiKey: key } = await h().server.container.accounts.createKey(made.email, 'test', TEST_ACTOR));
    });

    test('a link made without a privacy is private: the API (absent or empty), the link form, the dashboard, an import', async () => {
      const anonymous = new WebClient(h().baseUrl);
      const bare = await createLink(h(), key);
      assert.equal(bare.privacy, 1);
      assert.equal((await anonymous.get(`/stats/${bare.id}`)).status, 404, 'signed out, nothing to read');
      assert.equal((await createLink(h(), key, { privacy: '' })).privacy, 1, 'an empty privacy is the default');
      assert.equal((await createLink(h(), key, { privacy: 0 })).privacy, 0, 'public when asked');
      const cleared = await api('PUT', `/api/v1/links/${bare.id}`, { privacy: 0 });
      assert.equal(cleared.body.data.privacy, 0);
      assert.equal(
        (await api('PUT', `/api/v1/links/${bare.id}`, { privacy: '' })).body.data.privacy,
        1,
        'emptied: the default again',
      );

      const form = await owner.get('/links/new');
      assert.match(
        form.text,
        /<input type="radio" id="f-privacy-1" name="privacy" value="1" checked>/,
        'the form starts on Private',
      );
      assert.doesNotMatch(form.text, /name="privacy" value="0" checked/);
      const fromForm = await owner.post('/links/new', { url: 'https://example.com/from-the-form', target_type: '0' });
      assert.equal(fromForm.status, 303, fromForm.text.slice(0, 300));
      const formId = Number(/^\/links\/(\d+)\/edit$/.exec(fromForm.location ?? '')?.[1]);
      assert.equal((await linkOf(formId)).privacy, 1, 'a form posted without a privacy');

      const quick = await owner.post(
        '/dashboard/shorten',
        { url: 'https://example.com/from-the-dashboard' },
        { from: '/dashboard' },
      );
      assert.equal(quick.status, 303, quick.text.slice(0, 300));
      const list = await api('GET', '/api/v1/links?search=from-the-dashboard&by=url');
      assert.deepEqual(
        list.body.data.map((l: Json) => l.privacy),
        [1],
      );

      // A generic CSV carries no privacy; phpShort's does, and it is kept.
      const generic = await h().request('POST', '/api/v1/links/import', {
        key,
        ...(await multipart('url,alias\nhttps://example.com/imported,imported-private\n', 'csv')),
      });
      assert.equal(generic.status, 200, generic.text);
      const phpshort = await h().request('POST', '/api/v1/links/import', {
        key,
        ...(await multipart(
          'alias,url,title,target_type,privacy,disabled\nimported-public,https://example.com/imported-2,T,0,0,0\n',
          'phpshort-csv',
        )),
      });
      assert.equal(phpshort.status, 200, phpshort.text);
      for (const [alias, privacy] of [
        ['imported-private', 1],
        ['imported-public', 0],
      ] as const) {
        const found = await api('GET', `/api/v1/links?search=${alias}&by=alias`);
        assert.deepEqual(
          found.body.data.map((l: Json) => l.privacy),
          [privacy],
          alias,
        );
      }
    });

    test('a public page names no destination (nor its title) of a link with a redirect password, disabled, taken down or expired; its owner sees it', async () => {
      const make = (kind: string, form: Record<string, unknown> = {}) =>
        createLink(h(), key, {
          privacy: 0,
          url: `https://example.com/dest-${kind}`,
          title: `Title of ${kind}`,
          ...form,
        });
      const plain = await make('plain');
      const withheld = {
        password: await make('password', { password: 'Redirect-Secret-1' }),
        disabled: await make('disabled', { disabled: 1 }),
        takenDown: await make('taken-down'),
        clicksUsed: await make('clicks-used', { expiration_clicks: 1 }),
        dateGone: await make('date-gone', { expiration_date: '2026-03-10', expiration_time: '12:30' }),
      };
      await h().server.container.admin.setLinkDisabled(withheld.takenDown.id, true);
      await visit(h(), withheld.clicksUsed);
      await h().server.container.visits.sink.flush();
      assert.equal((await linkOf(withheld.clicksUsed.id)).clicks, 1);
      clock.set('2026-03-10T13:00:00Z');
      try {
        const anonymous = new WebClient(h().baseUrl);
        const shown = await anonymous.get(`/stats/${plain.id}`);
        assert.match(shown.text, /https:\/\/example\.com\/dest-plain/);
        assert.match(shown.text, /Title of plain/);
        for (const [kind, link] of Object.entries(withheld)) {
          for (const path of [`/stats/${link.id}`, `/stats/${link.id}/countries`, `/stats/${link.id}/hours`]) {
            const page = await anonymous.get(path);
            assert.equal(page.status, 200, `${kind} ${path}`);
            assert.doesNotMatch(page.text, /example\.com\/dest-/, `${kind} ${path}: no destination`);
            assert.doesNotMatch(page.text, /Title of/, `${kind} ${path}: no title`);
            assert.match(page.text, /Not shown: the link asks for a password or does not send visitors on\./);
            assert.match(
              page.text,
              new RegExp(`<h1>Statistics: http://short\\.test/${link.alias}</h1>`),
              `${kind}: named by its short URL`,
            );
          }
          const mine = await owner.get(`/stats/${link.id}`);
          assert.match(
            mine.text,
            new RegExp(`https://example\\.com/dest-${link.url.split('dest-')[1]}`),
            `${kind}: the owner sees it`,
          );
          assert.match(mine.text, /Title of/);
        }
      } finally {
        clock.set(NOON);
      }
    });

    test('every country folded into Other: the map says so, never “No clicks from any country” beside Other', async () => {
      const link = await createLink(h(), key, { privacy: 0 });
      await visit(h(), link, { ip: '8.8.8.8' });
      await visit(h(), link, { ip: '81.2.69.160' });
      await h().server.container.visits.sink.flush();
      const anonymous = new WebClient(h().baseUrl);
      for (const path of [`/stats/${link.id}`, `/stats/${link.id}/countries`]) {
        const page = (await anonymous.get(path)).text;
        assert.match(page, /<tr data-other><th scope="row" class="muted">Other<\/th><td class="num">2<\/td>/, path);
        assert.doesNotMatch(page, /No clicks from any country/, path);
        assert.match(page, /2 clicks, all from countries shown together as “Other” to protect visitors\./, path);
      }
      assert.match((await owner.get(`/stats/${link.id}`)).text, /2 clicks from 2 countries/, 'the owner sees them');
    });

    test('values under STATS_MIN_COUNT are folded into Other for anyone but the owner, in every table and CSV; totals and hours stay exact', async () => {
      const link = await createLink(h(), key, { privacy: 0 });
      await sixVisits(h(), link);
      const anonymous = new WebClient(h().baseUrl);
      const theirs = await anonymous.get(`/stats/${link.id}`);
      const mine = await owner.get(`/stats/${link.id}`);
      assert.equal(theirs.status, 200);
      assert.deepEqual(cardsOf(theirs.text), cardsOf(mine.text), 'the totals are exact');
      assert.equal(cardsOf(theirs.text).total, '6');
      assert.match(theirs.text, /To protect visitors, values with fewer than 5 clicks are shown together as “Other”\./);
      assert.doesNotMatch(mine.text, /To protect visitors/);

      // What the owner reads of the sixth visitor, value by value: none of it reaches anyone else.
      const lone: Array<[string, string]> = [];
      for (const [table, name] of [
        ['browsers', 'browser'],
        ['platforms', 'platform'],
        ['devices', 'device'],
      ] as const) {
        const res = await api('GET', `/api/v1/stats/${link.id}?name=${name}`);
        const rare = res.body.data.filter((e: Json) => e.count === 1);
        assert.equal(rare.length, 1, `${name}: one value of one visitor (${JSON.stringify(res.body.data)})`);
        lone.push([table, PAGE_NAMES[rare[0].value] ?? rare[0].value]);
      }
      lone.push(['referrers', INTRANET], ['countries', 'United Kingdom'], ['languages', 'French']);
      for (const [table, label] of lone) {
        const ownerTable = await owner.get(`/stats/${link.id}/${table}`);
        assert.match(ownerTable.text, row(label.replaceAll('.', '\\.'), 1), `${table}: the owner sees ${label}`);
        assert.doesNotMatch(ownerTable.text, /data-other/, `${table}: nothing folded for the owner`);
        const page = await anonymous.get(`/stats/${link.id}/${table}`);
        assert.equal(page.status, 200, table);
        assert.ok(!page.text.replaceAll('<wbr>', '').includes(`>${label}<`), `${table}: ${label} is not shown`);
        assert.match(
          page.text,
          /<tr data-other><th scope="row" class="muted">Other<\/th><td class="num">1<\/td>/,
          `${table}: one Other row`,
        );
        // No search picks a folded value out.
        const searched = await anonymous.get(
          `/stats/${link.id}/${table}?search=${encodeURIComponent(label.slice(0, 5))}`,
        );
        assert.ok(!searched.text.replaceAll('<wbr>', '').includes(`>${label}<`), `${table}: searched`);
      }
      assert.ok(!theirs.text.replaceAll('<wbr>', '').includes(INTRANET), 'not on the overview either');
      // The map names every country in its shapes' titles ("United Kingdom: no clicks"): read around it.
      const besideMap = theirs.text.replace(/<svg[\s\S]*?<\/svg>/g, '');
      assert.ok(!besideMap.includes('United Kingdom') && !besideMap.includes('French'));
      assert.match(theirs.text, /<title>United Kingdom: no clicks<\/title>/, 'folded on the map too');
      assert.match(theirs.text, row('news\\.example\\.com', 5), 'five clicks: shown');

      const csv = await anonymous.get(`/stats/${link.id}/export/referrers`);
      assert.equal(csv.status, 200);
      assert.equal(csv.text, 'value,count\r\nnews.example.com,5\r\n(other),1\r\n');
      assert.equal((await anonymous.get(`/stats/${link.id}/export/referrers?search=intranet`)).text, 'value,count\r\n');
      assert.equal(
        (await anonymous.get(`/stats/${link.id}/export/countries?sort=min`)).text,
        'value,count\r\nUS,5\r\n(other),1\r\n',
      );
      const ownerCsv = await owner.get(`/stats/${link.id}/export/referrers`);
      assert.equal(ownerCsv.text, `value,count\r\nnews.example.com,5\r\n${INTRANET},1\r\n`);

      // When, not who: the hours stay exact.
      const hours = await anonymous.get(`/stats/${link.id}/hours`);
      assert.match(hours.text, /<th scope="row">12:00 PM<\/th><td>6<\/td>/);
      assert.doesNotMatch(hours.text, /data-other/);
    });

    test('public pages take no days of their own choosing: from/to are the last 30 days, and no form asks for them', async () => {
      const link = await createLink(h(), key, { privacy: 0 });
      const anonymous = new WebClient(h().baseUrl);
      for (const path of [
        `/stats/${link.id}?from=2026-03-10&to=2026-03-10`,
        `/stats/${link.id}/referrers?from=2026-03-10&to=2026-03-10`,
        `/stats/${link.id}?from=2026-02-30`,
      ]) {
        const page = await anonymous.get(path);
        assert.equal(page.status, 200, path);
        assert.match(page.text, /data-range-from>2026-02-09<.*data-range-to>2026-03-10</s, path);
        assert.doesNotMatch(page.text, /name="from"/, path);
      }
      const csv = await anonymous.get(`/stats/${link.id}/export/referrers?from=2026-03-10&to=2026-03-10`);
      assert.match(csv.headers.get('content-disposition') ?? '', /-2026-02-09-2026-03-10\.csv"/);
      const mine = await owner.get(`/stats/${link.id}?from=2026-03-10&to=2026-03-10`);
      assert.match(mine.text, /data-range-from>2026-03-10<.*data-range-to>2026-03-10</s, 'the owner chooses any days');
      assert.match(mine.text, /name="from"/);
    });

    test('a visitor who unlocked a password page sees what the public sees: rare values folded', async () => {
      const link = await createLink(h(), key, { privacy: 2, privacy_password: 'stats-pass-1' });
      await sixVisits(h(), link);
      const visitor = new WebClient(h().baseUrl);
      const unlocked = await visitor.post(
        `/stats/${link.id}/password`,
        { password: 'stats-pass-1', next: `/stats/${link.id}/referrers` },
        { from: `/stats/${link.id}` },
      );
      assert.equal(unlocked.status, 303);
      const page = await visitor.get(`/stats/${link.id}/referrers`);
      assert.equal(page.status, 200);
      assert.match(page.text, row('news\\.example\\.com', 5));
      assert.match(page.text, /<tr data-other><th scope="row" class="muted">Other<\/th><td class="num">1<\/td>/);
      assert.ok(!page.text.replaceAll('<wbr>', '').includes(INTRANET));
      assert.equal(
        (await visitor.get(`/stats/${link.id}/export/referrers`)).text,
        'value,count\r\nnews.example.com,5\r\n(other),1\r\n',
      );
      assert.match((await owner.get(`/stats/${link.id}/referrers`)).text, row(INTRANET.replaceAll('.', '\\.'), 1));
    });
  },
  { env: { TRUST_PROXY: 'true' }, overrides: { clock } },
);

onEachEngine(
  'web: an operator who keeps phpShort’s public default and shows every value',
  (h) => {
    test('DEFAULT_STATS_PRIVACY=0 and STATS_MIN_COUNT=1: public by default, the lone visitor shown', async () => {
      const { client, email } = await signedUp(h().baseUrl);
      const { apiKey: key } = await h().server.container.accounts.createKey(email, 'test', TEST_ACTOR);
      const link = await createLink(h(), key);
      assert.equal(link.privacy, 0);
      assert.match(
        (await client.get('/links/new')).text,
        /<input type="radio" id="f-privacy" name="privacy" value="0" checked>/,
      );
      await visit(h(), link, { referer: `https://${INTRANET}/` });
      await h().server.container.visits.sink.flush();
      const page = await new WebClient(h().baseUrl).get(`/stats/${link.id}/referrers`);
      assert.equal(page.status, 200);
      assert.match(page.text, row(INTRANET.replaceAll('.', '\\.'), 1));
      assert.doesNotMatch(page.text, /data-other|To protect visitors/);
    });
  },
  { env: { TRUST_PROXY: 'true', STATS_MIN_COUNT: '1' }, overrides: { tuning: { DEFAULT_STATS_PRIVACY: 0 } } },
);
