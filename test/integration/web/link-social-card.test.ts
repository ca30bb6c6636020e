import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, assertSeeOther, fieldError, signedInWithKey } from '../../support/web-resources.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const valueOf = (page: string, name: string) =>
  new RegExp(`name="${name.replace(/[[\]]/g, '\\$&')}"[^>]*value="([^"]*)"`).exec(page)?.[1];

onEachEngine('web: a link form’s social card', (h) => {
  let me: WebClient;
  let key: string;
  const api = apiAs(h, () => key, 'form');
  const linkOf = async (id: number): Promise<Json> => (await api('GET', `/api/v1/links/${id}`)).body.data;

  before(async () => {
    ({ me, key } = await signedInWithKey(h()));
  });

  test('set on create, shown on edit with its preview, cleared by emptying it', async () => {
    const page = await me.get('/links/new');
    assert.match(page.text, /<summary[^>]*>[^]*?Social card/);
    const made = await me.post(
      '/links/new',
      {
        url: 'https://example.com/card',
        'social_card[title]': 'Card <title>',
        'social_card[description]': 'Words',
        'social_card[image]': 'https://cdn.example/c.png',
      },
      { from: '/links/new' },
    );
    assertSeeOther(made, /^\/links\/\d+\/edit$/);
    const id = Number(/^\/links\/(\d+)\/edit$/.exec(made.location ?? '')?.[1]);
    const link = await linkOf(id);
    assert.deepEqual(link.social_card, {
      title: 'Card <title>',
      description: 'Words',
      image: 'https://cdn.example/c.png',
    });
    const edit = await me.get(`/links/${id}/edit`);
    assert.equal(valueOf(edit.text, 'social_card[title]'), 'Card &lt;title&gt;');
    assert.match(edit.text, /<figcaption>Card preview<\/figcaption>/);
    assert.match(edit.text, /Image from cdn\.example/);
    const cleared = await me.post(
      `/links/${id}/edit`,
      { url: 'https://example.com/card', alias: link.alias, 'social_card[title]': '', 'social_card[image]': '' },
      { from: `/links/${id}/edit` },
    );
    assertSeeOther(cleared, '/links');
    assert.equal((await linkOf(id)).social_card, null);
  });

  test('a bad image URL: 422 naming it, what was typed kept, nothing written', async () => {
    const before = (await api('GET', '/api/v1/links')).body.meta.total;
    const reply = await me.post(
      '/links/new',
      { url: 'https://example.com/card', title: 'Kept', 'social_card[image]': 'http://cdn.example/x.png' },
      { from: '/links/new' },
    );
    assert.equal(reply.status, 422);
    assert.ok(fieldError(reply.text, 'social_card-image'), 'social_card.image is named');
    assert.equal(valueOf(reply.text, 'social_card[image]'), 'http://cdn.example/x.png');
    assert.equal(valueOf(reply.text, 'title'), 'Kept');
    assert.equal((await api('GET', '/api/v1/links')).body.meta.total, before);
  });
});
