// The rules page's preview when the person's turn is taken (docs/api.md §18: one preview at a
// time per person, whether asked through a key or the web app): the page comes back with the
// draft in its box and says a preview is already running (429 with Retry-After), never the
// generic error page that would lose the draft.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { seedClicks } from '../../support/click-seed.ts';
import { rules } from '../../../src/adapters/web/i18n/en/rules.ts';
import { signedInWithKey } from '../../support/web-resources.ts';

const CLICKS = 150_000;
const DAY_MS = 86_400_000;
const DRAFT = '[{"name": "Kept draft", "when": {"country": ["DE"]}, "url": "https://de.example/"}]';

onEachEngine('web: a refused rules preview keeps the draft', (h) => {
  test('while the person’s API preview runs, the page’s preview is 429 with the draft kept and a message', async () => {
    const { me, key } = await signedInWithKey(h());
    const account = await h().request('GET', '/api/v1/account', { key });
    const made = await h().request('POST', '/api/v1/links', { key, json: { url: 'https://example.com/' } });
    assert.equal(made.status, 201, made.text);
    const id = made.body.data.id as number;
    await seedClicks(h().server.container.storage, {
      linkId: id,
      accountId: account.body.data.id,
      rows: CLICKS,
      newest: Date.now() - 60_000,
      stepMs: (20 * DAY_MS) / CLICKS,
    });
    const page = `/links/${id}/rules`;
    await me.get(page); // the form's token is read before the API's preview takes the turn
    let apiDone = false;
    const api = h()
      .request('POST', `/api/v1/links/${id}/rules/preview`, { key, json: { rules: [] } })
      .finally(() => (apiDone = true));
    // The API's preview takes the person's turn before the page's request reaches it (a replay of CLICKS lasts far longer).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await me.post(page, { rules: DRAFT, intent: 'preview' }, { from: page });
    assert.equal(apiDone, false, 'the API preview ended before the page asked: the test proves nothing');
    assert.equal(refused.status, 429, refused.text.slice(0, 500));
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.ok(refused.text.includes(rules.previewBusy), 'the message');
    assert.ok(refused.text.includes('Kept draft'), 'the draft stays in the box');
    assert.equal((await api).status, 200);
    const answered = await me.post(page, { rules: DRAFT, intent: 'preview' }, { from: page });
    assert.equal(answered.status, 200, answered.text.slice(0, 500));
  });
});
