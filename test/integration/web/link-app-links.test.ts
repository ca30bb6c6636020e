import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, assertSeeOther, fieldError, signedInWithKey } from '../../support/web-resources.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const valueOf = (page: string, name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(page)?.[1];

onEachEngine(
  'web: a link form’s app links (ios_url, android_url)',
  (h) => {
    let me: WebClient;
    let key: string;
    const api = apiAs(h, () => key, 'form');
    const linkOf = async (id: number): Promise<Json> => (await api('GET', `/api/v1/links/${id}`)).body.data;
    const idFrom = (location: string | null) => Number(/^\/links\/(\d+)\/edit$/.exec(location ?? '')?.[1]);

    before(async () => {
      ({ me, key } = await signedInWithKey(h()));
    });

    test('set on create, shown on edit, cleared by emptying them', async () => {
      const page = await me.get('/links/new');
      assert.match(page.text, /<span class="form-section-title">App links<\/span>/);
      const made = await me.post(
        '/links/new',
        { url: 'https://example.com/app', ios_url: 'https://apps.example.com/open', android_url: 'myapp://open/42' },
        { from: '/links/new' },
      );
      assertSeeOther(made, /^\/links\/\d+\/edit$/);
      const id = idFrom(made.location);
      const link = await linkOf(id);
      assert.equal(link.ios_url, 'https://apps.example.com/open');
      assert.equal(link.android_url, 'myapp://open/42');
      const edit = await me.get(`/links/${id}/edit`);
      assert.equal(valueOf(edit.text, 'ios_url'), 'https://apps.example.com/open');
      assert.equal(valueOf(edit.text, 'android_url'), 'myapp://open/42');
      // Folded, saying what is set.
      assert.match(
        edit.text,
        /<details class="form-section" id="section-app-links">\s*<summary>[^]*?iOS · Android<\/span><\/summary>/,
      );
      const cleared = await me.post(
        `/links/${id}/edit`,
        { url: 'https://example.com/app', alias: link.alias, ios_url: '', android_url: '' },
        { from: `/links/${id}/edit` },
      );
      assertSeeOther(cleared, '/links');
      const after = await linkOf(id);
      assert.equal(after.ios_url, null);
      assert.equal(after.android_url, null);
    });

    test('refused as the API refuses them: each named, what was typed kept, nothing written', async () => {
      const before = (await api('GET', '/api/v1/links')).body.meta.total;
      const typed = {
        url: 'https://example.com/app',
        title: 'Kept',
        ios_url: 'javascript:alert(1)',
        android_url: 'otherapp://x',
      };
      const reply = await me.post('/links/new', typed, { from: '/links/new' });
      assert.equal(reply.status, 422);
      assert.ok(fieldError(reply.text, 'ios_url'), 'ios_url is named');
      assert.ok(fieldError(reply.text, 'android_url'), 'android_url is named');
      // The section holding the refused fields opens itself; the others stay folded.
      assert.match(reply.text, /<details class="form-section" id="section-app-links" open>/);
      assert.match(reply.text, /<details class="form-section" id="section-expiry">/);
      assert.equal(valueOf(reply.text, 'ios_url'), 'javascript:alert(1)');
      assert.equal(valueOf(reply.text, 'android_url'), 'otherapp://x');
      assert.equal(valueOf(reply.text, 'title'), 'Kept');
      assert.equal((await api('GET', '/api/v1/links')).body.meta.total, before);
      const api422 = await api('POST', '/api/v1/links', typed);
      assert.equal(api422.status, 422);
      assert.match(api422.text, /ios_url/);
      assert.match(api422.text, /android_url/, 'the API names the same fields');
    });
  },
  { env: { APP_SCHEMES: 'myapp' } },
);
