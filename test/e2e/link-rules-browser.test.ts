/**
 * A link's rules page in a real Chromium: Test a visitor shows the trace and keeps every field;
 * a bad rule is named beside the box with the text kept; a change shows the replay of the last
 * 30 days before it is saved; the builder with JavaScript off (rows by round trip) and on.
 * axe finds no violation in every theme, and nothing scrolls sideways at 320 px.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser, newPage } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';
import type { Page } from 'playwright-core';

after(closeBrowser);

const TIMEOUT = { timeout: 90_000 };
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

onEachEngineInBrowser('the rules page in a browser', { env: { TRUST_PROXY: 'true' } }, (web) => {
  let id: number;
  let key: string;

  before(async () => {
    key = await apiKeyOf(web.h, web.email);
    const rules = [
      { name: 'US iPhone', when: { country: ['US'], os: ['iOS'] }, url: `${web.dest.base}/us-iphone` },
      { name: 'German', when: { language: ['de'] }, url: `${web.dest.base}/de` },
    ];
    const res = await web.h.request('POST', '/api/v1/links', {
      key,
      json: { url: `${web.dest.base}/default`, alias: 'rules-browser', rules },
    });
    assert.equal(res.status, 201, res.text);
    id = res.body.data.id as number;
    // Traffic to replay: two US iPhones, one German desktop.
    for (const [ip, ua, language] of [
      ['8.8.8.8', IPHONE, 'en'],
      ['8.8.8.8', IPHONE, 'en'],
      [
        '85.214.0.1',
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
        'de',
      ],
    ] as const) {
      const visit = await fetch(`${web.h.baseUrl}/rules-browser`, {
        redirect: 'manual',
        headers: { 'user-agent': ua, 'x-forwarded-for': ip, 'accept-language': language },
      });
      assert.equal(visit.status, 302);
    }
    await web.h.server.container.visits.sink.flush();
  });

  test('Test a visitor: the trace, every field kept', TIMEOUT, async () => {
    const { page } = web;
    await web.open(`/links/${id}/edit`, 200, /Edit/);
    await page.getByRole('link', { name: 'Rules', exact: true }).click();
    await web.assertHeading(/^Rules of /);
    await web.everyTheme();
    await page.getByLabel('Country (two-letter code)').fill('us');
    await page.getByLabel('Operating system').selectOption('iOS');
    await page.getByLabel('Device').selectOption('mobile');
    await page.getByLabel('Browser', { exact: true }).selectOption('Mobile Safari');
    await page.getByLabel(/^Languages/).fill('de');
    await page.getByLabel(/^Referrer/).fill('news.example');
    await page.getByLabel('Time of the visit').fill('2026-11-27T10:00');
    await page.getByRole('button', { name: 'Test this visitor' }).click();
    await page.getByRole('heading', { name: 'Where this visitor goes' }).waitFor();
    const result = page.locator('#test-result');
    assert.match(await result.innerText(), /Redirected[\s\S]*\/us-iphone[\s\S]*Rule 1/);
    assert.match(await result.innerText(), /country\s+US\s+Holds/);
    assert.equal(await page.getByLabel('Country (two-letter code)').inputValue(), 'us');
    assert.equal(await page.getByLabel('Operating system').inputValue(), 'iOS');
    assert.equal(await page.getByLabel('Browser', { exact: true }).inputValue(), 'Mobile Safari');
    assert.equal(await page.getByLabel(/^Referrer/).inputValue(), 'news.example');
    assert.equal(await page.getByLabel('Time of the visit').inputValue(), '2026-11-27T10:00');
    await web.everyTheme('with a trace');

    await page.getByLabel('Country (two-letter code)').fill('U1');
    await page.getByRole('button', { name: 'Test this visitor' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.locator('#f-country-error').innerText(), /country format is invalid/);
    assert.equal(await page.getByLabel('Country (two-letter code)').inputValue(), 'U1');
  });

  test('a bad rule is named beside the box; a change is previewed, then saved', TIMEOUT, async () => {
    const { page } = web;
    await web.open(`/links/${id}/rules`, 200, /^Rules of /);
    await page.getByText('Advanced: the same rules as JSON').click();
    const json = page.locator('form.rules-form');
    const box = page.getByLabel('Rules (JSON)');
    const bad = JSON.stringify([{ when: { country: ['USA'] }, url: `${web.dest.base}/x` }]);
    await box.fill(bad);
    await json.getByRole('button', { name: 'Save rules' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(
      await page.locator('#f-rules-error').innerText(),
      /rules\.0\.when\.country\.0/,
      'the JSON view keeps paths raw',
    );
    assert.match(await page.locator('.error-summary').innerText(), /Rule 1 › country › value 1/);
    assert.equal(await box.inputValue(), bad, 'the text is kept');
    await web.everyTheme('with a fault');

    const draft = JSON.stringify([{ name: 'Everyone German', when: {}, url: `${web.dest.base}/de` }], null, 2);
    await box.fill(draft);
    await json.getByRole('button', { name: 'Save rules' }).click();
    await page.getByRole('heading', { name: 'The last 30 days, replayed' }).waitFor();
    assert.match(await page.locator('.rules-preview').innerText(), /3 clicks replayed; 2 would go somewhere else/);
    await page.getByText(/Press “Save rules” again/).waitFor();
    await web.everyTheme('with a preview');
    await json.getByRole('button', { name: 'Save rules' }).click();
    await page.getByText('Rules saved.').waitFor();
    const stored = await web.h.request('GET', `/api/v1/links/${id}`, { key });
    assert.deepEqual(
      stored.body.data.rules.map((r: { url: string }) => r.url),
      [`${web.dest.base}/de`],
    );
  });

  /** Saves the builder's rules: the replay first, then Save again; the API reads them back. */
  async function saveBuilder(page: Page) {
    const builder = page.locator('#rules-builder');
    await builder.getByRole('button', { name: 'Save rules' }).click();
    await page.getByText(/Press “Save rules” again/).waitFor();
    await page.locator('#rules-builder').getByRole('button', { name: 'Save rules' }).click();
    await page.getByText('Rules saved.').waitFor();
    return (await web.h.request('GET', `/api/v1/links/${id}`, { key })).body.data.rules;
  }

  test(
    'the builder without JavaScript: rows by round trip, the typed values kept, saved as the API saves',
    TIMEOUT,
    async () => {
      const page = await newPage({ javaScriptEnabled: false });
      await page.context().addCookies(await web.page.context().cookies());
      await page.goto(`${web.h.baseUrl}/links/${id}/rules`);
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.locator('[name="rule[1][name]"]').fill('French');
      await page.getByRole('button', { name: 'Add condition (rule 2)' }).click();
      assert.equal(await page.locator('[name="rule[1][name]"]').inputValue(), 'French', 'kept over the round trip');
      await page.locator('[name="rule[1][c][0][text]"]').fill('fr');
      await page.locator('[name="rule[1][url]"]').fill(`${web.dest.base}/fr`);
      await page.getByRole('button', { name: 'Move up (rule 2)' }).click();
      assert.equal(await page.locator('[name="rule[0][name]"]').inputValue(), 'French');
      assert.equal(await page.locator('[name="rule[0][c][0][text]"]').inputValue(), 'fr');
      const rules = await saveBuilder(page);
      assert.deepEqual(rules[0], { name: 'French', when: { country: ['FR'] }, url: `${web.dest.base}/fr` });
      assert.equal(rules[1].name, 'Everyone German');
      await page.getByText('Advanced: the same rules as JSON').click();
      assert.match(await page.getByLabel('Rules (JSON)').inputValue(), /"French"[\s\S]*"FR"/);
      await page.close();
    },
  );

  test(
    'the builder with JavaScript: rows added and changed in the page, a split’s sum and warning',
    TIMEOUT,
    async () => {
      const { page } = web;
      await web.open(`/links/${id}/rules`, 200, /^Rules of /);
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByRole('button', { name: 'Add condition (rule 3)' }).click();
      await page.locator('[name="rule[2][c][0][kind]"]').selectOption('os');
      await page.locator('[name="rule[2][c][0][picked]"]').selectOption(['Android']);
      await page.locator('[name="rule[2][name]"]').fill('Android test');
      await page.getByLabel('Split between variants').nth(2).check();
      await page.locator('[name="rule[2][split][0][url]"]').fill(`${web.dest.base}/a`);
      await page.locator('[name="rule[2][split][0][weight]"]').fill('60');
      await page.locator('[name="rule[2][split][1][url]"]').fill(`${web.dest.base}/b`);
      await page.locator('[name="rule[2][split][1][weight]"]').fill('30');
      const row = page.locator('[data-rb-rule]').nth(2);
      assert.match(await row.locator('[data-rb-sum]').innerText(), /sum to 90\.\s+Not 100/);
      await page.getByRole('button', { name: 'Move up (rule 3)' }).click();
      assert.equal(await page.locator('[name="rule[1][name]"]').inputValue(), 'Android test');
      assert.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true, 'no request');
      await web.everyTheme('the builder');
      const rules = await saveBuilder(page);
      assert.deepEqual(rules[1], {
        name: 'Android test',
        when: { os: ['Android'] },
        split: [
          { url: `${web.dest.base}/a`, weight: 60 },
          { url: `${web.dest.base}/b`, weight: 30 },
        ],
      });
      assert.match(
        await page.locator('[data-rb-rule]').nth(1).locator('.rule-row-warnings').innerText(),
        /sum to 90, not 100/,
      );
      await page.getByText('Advanced: the same rules as JSON').click();
      assert.match(await page.getByLabel('Rules (JSON)').inputValue(), /"Android test"/);
    },
  );
});
