import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import qs from 'qs';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, webAccount } from '../../support/web-resources.ts';

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

onEachEngine('web: the link form preview card', (h) => {
  let me: WebClient;
  let key: string;

  const api = apiAs(h, () => key, 'form');
  const preview = async (path: string, form: Record<string, unknown>, headers: Record<string, string> = {}) =>
    me.send('POST', path, qs.stringify({ _csrf: await me.csrf('/links/new'), ...form }), {
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    });

  before(async () => {
    ({ client: me, key } = await webAccount(h()));
  });

  test('the form pages start with the card: short URL, destination, no QR code until the alias is known', async () => {
    const page = await me.get('/links/new');
    assert.match(page.text, /<div class="link-form-layout">/);
    assert.match(page.text, /data-preview="link-preview-card" data-preview-url="\/links\/new\/preview"/);
    assert.match(page.text, /<aside class="link-preview" aria-labelledby="link-preview-title">/);
    assert.match(page.text, /http:\/\/short\.test\/<em>random<\/em>/);
    assert.match(page.text, /The QR code appears once the alias is known\./);
  });

  test('the card follows the form as sent: the alias, its QR code, the destination this visitor reaches', async () => {
    const form = {
      url: 'https://example.com/home',
      alias: 'preview-me',
      password: 'kept-out',
      target_type: '3',
      language: [
        { key: 'FR', value: 'https://example.com/fr' },
        { key: 'de', value: '' },
      ],
    };
    const reply = await preview('/links/new/preview', form, { 'accept-language': 'fr-CH, en;q=0.5' });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/html/);
    assert.doesNotMatch(reply.text, /<html|<form|kept-out/);
    assert.match(reply.text, /http:\/\/short\.test\/preview-me/);
    assert.match(reply.text, /<dd class="url">https:\/\/example\.com\/fr/);
    assert.match(
      reply.text,
      /<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="QR code for http:\/\/short\.test\/preview-me"/,
    );
    assert.match(reply.text, /Languages: fr, en/);

    const android = await preview(
      '/links/new/preview',
      {
        url: 'https://example.com/home',
        target_type: '2',
        platform: [{ key: 'Android', value: 'https://example.com/droid' }],
      },
      { 'user-agent': ANDROID },
    );
    assert.match(android.text, /<dd class="url">https:\/\/example\.com\/droid/);
    assert.match(android.text, /Platform: Android/);
    const rotation = await preview('/links/new/preview', {
      url: 'https://example.com/home',
      target_type: '4',
      rotation: [{ value: 'https://example.com/a' }, { value: 'https://example.com/b' }],
    });
    assert.match(
      rotation.text,
      /https:\/\/example\.com\/a<span class="hint">The first of 2 URLs, then each in turn\.<\/span>/,
    );
  });

  test('stored markup and typed markup come out escaped; nothing is saved', async () => {
    const before = (await api('GET', '/api/v1/links')).body.meta.total;
    const reply = await preview('/links/new/preview', {
      url: 'javascript:alert(1)"><script>x()</script>',
      alias: '<b>',
    });
    assert.equal(reply.status, 200);
    assert.doesNotMatch(reply.text, /<script>|<b>/);
    assert.match(reply.text, /&lt;script&gt;x\(\)&lt;\/script&gt;/);
    assert.equal((await api('GET', '/api/v1/links')).body.meta.total, before);
  });

  test('edit: the link’s own domain and alias; another account’s link is a 404; no token is a 403', async () => {
    const made = (
      await api('POST', '/api/v1/links', {
        url: 'https://example.com/stored',
        alias: 'stored-alias',
        title: 'Stored page',
      })
    ).body.data;
    const page = await me.get(`/links/${made.id}/edit`);
    // The link's title (typed, or the destination's as fetched on save) heads the card.
    assert.match(page.text, /<dt>Title<\/dt>\s*<dd class="preview-title">Stored page<\/dd>/);
    assert.match(page.text, new RegExp(`data-preview-url="/links/${made.id}/preview"`));
    assert.match(page.text, /<dd class="url">http:\/\/short\.test\/stored-alias/);
    assert.match(page.text, /<dd class="url">https:\/\/example\.com\/stored/);
    const changed = await preview(`/links/${made.id}/preview`, {
      url: 'https://example.com/changed',
      alias: 'stored-alias',
    });
    assert.match(changed.text, /<dd class="url">https:\/\/example\.com\/changed/);

    const { key: otherKey } = await webAccount(h());
    const theirs = (await api('POST', '/api/v1/links', { url: 'https://example.com/theirs' }, otherKey)).body.data;
    assert.equal((await preview(`/links/${theirs.id}/preview`, { url: 'https://example.com/x' })).status, 404);
    const noToken = await me.send('POST', '/links/new/preview', 'url=https%3A%2F%2Fexample.com', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(noToken.status, 403);
  });
});
