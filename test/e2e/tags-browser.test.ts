/**
 * Tags in a real Chromium (issue 31): /links/tags, a tag's edit page (and its refusal), and the
 * links list with its chips and tag filter pass axe in the light and dark themes and at 390 px,
 * without sideways scrolling at 320 px.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };

onEachEngineInBrowser('tags in a browser', {}, (web) => {
  test('/links/tags, a refused rename, and the list with chips and a tag filter', TIMEOUT, async () => {
    const key = await apiKeyOf(web.h, web.email);
    for (const tags of [['Launch', 'Quarter three'], ['Launch'], ['A rather long tag name of 32 ch']]) {
      const res = await web.h.request('POST', '/api/v1/links', {
        key,
        json: { url: `${web.dest.base}/page`, title: 'Tagged link', tags },
      });
      assert.equal(res.status, 201, res.text);
    }
    await web.open('/links/tags', 200, 'Tags');
    await web.everyTheme('tags');
    await web.page.getByRole('link', { name: 'Edit tag Launch' }).click();
    await web.assertHeading('Edit tag Launch');
    await web.everyTheme('edit');
    await web.page.getByLabel('Name').fill('Quarter three');
    await web.page.getByRole('button', { name: 'Save tag' }).click();
    await web.page.getByRole('heading', { name: 'There is a problem' }).waitFor();
    await web.everyTheme('refused');
    await web.open('/links', 200, 'Links');
    await web.everyTheme('chips');
    await web.open('/links?tag=launch', 200, 'Links');
    await web.everyTheme('filtered');
  });
});
