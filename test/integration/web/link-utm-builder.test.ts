// Issue 31: the link form's UTM builder, without a script: the server composes the five fields
// into the destination, reads them back from it, and applies a template in a round trip.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, fieldError, signedInWithKey } from '../../support/web-resources.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const NONE = { utm_source: '', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '' };

onEachEngine('web: the link form’s UTM builder', (h) => {
  let me: WebClient;
  let key: string;
  let otherKey: string;

  const api = apiAs(h, () => key);
  const linkOf = async (id: number): Promise<Json> => (await api('GET', `/api/v1/links/${id}`)).body.data;
  const linkCount = async (): Promise<number> => (await api('GET', '/api/v1/links')).body.meta.total;
  const idFrom = (location: string | null) => Number(/^\/links\/(\d+)\/edit$/.exec(location ?? '')?.[1]);
  const valueOf = (page: string, name: string) => new RegExp(`name="${name}" [^>]*value="([^"]*)"`).exec(page)?.[1];

  before(async () => {
    ({ me, key, otherKey } = await signedInWithKey(h()));
  });

  test('the new form has the five fields and a link to the templates; no picker without templates', async () => {
    const page = await me.get('/links/new');
    for (const name of ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'])
      assert.match(page.text, new RegExp(`<input id="f-${name}" name="${name}" type="text"`), name);
    assert.match(page.text, /<legend>UTM parameters<\/legend>/);
    assert.match(page.text, /<input type="hidden" name="utm_base" value="">/);
    assert.match(page.text, /<a href="\/links\/utm-templates">/);
    assert.doesNotMatch(page.text, /name="utm_template"/);
  });

  test('on create the fields are composed into the destination, its own parameters and fragment kept', async () => {
    const reply = await me.post(
      '/links/new',
      { url: 'https://example.com/p?ref=1#top', utm_base: '', ...NONE, utm_source: 'news letter', utm_campaign: 'été' },
      { from: '/links/new' },
    );
    assert.equal(reply.status, 303, reply.text.slice(0, 1500));
    const link = await linkOf(idFrom(reply.location));
    assert.equal(link.url, 'https://example.com/p?ref=1&utm_source=news%20letter&utm_campaign=%C3%A9t%C3%A9#top');
  });

  test('a destination typed with parameters keeps them when the builder was left as shown', async () => {
    const reply = await me.post(
      '/links/new',
      { url: 'https://example.com/?utm_source=typed&utm_medium=cpc', utm_base: '', ...NONE },
      { from: '/links/new' },
    );
    assert.equal(reply.status, 303, reply.text.slice(0, 1500));
    assert.equal((await linkOf(idFrom(reply.location))).url, 'https://example.com/?utm_source=typed&utm_medium=cpc');
  });

  test('the edit form reads the fields back; a changed field wins, an emptied one is taken out, the destination’s own edits stay', async () => {
    const made = (
      await api('POST', '/api/v1/links', {
        url: 'https://example.com/a?utm_source=old&utm_medium=email&utm_term=shoes',
      })
    ).body.data;
    const path = `/links/${made.id}/edit`;
    const page = await me.get(path);
    assert.equal(valueOf(page.text, 'utm_source'), 'old');
    assert.equal(valueOf(page.text, 'utm_medium'), 'email');
    assert.equal(valueOf(page.text, 'utm_term'), 'shoes');
    assert.equal(valueOf(page.text, 'utm_campaign'), '');
    const shown = valueOf(page.text, 'utm_base')!.replace(/&amp;/g, '&');
    assert.equal(shown, made.url);

    // The destination was edited by hand (utm_medium) and the builder too (utm_source, utm_term).
    const reply = await me.post(
      path,
      {
        url: 'https://example.com/a?utm_source=old&utm_medium=social&utm_term=shoes',
        alias: made.alias,
        utm_base: shown,
        utm_source: 'new',
        utm_medium: 'email',
        utm_campaign: '',
        utm_term: '',
        utm_content: 'banner',
      },
      { from: path },
    );
    assert.equal(reply.status, 303, reply.text.slice(0, 1500));
    assert.equal(
      (await linkOf(made.id)).url,
      'https://example.com/a?utm_source=new&utm_medium=social&utm_content=banner',
    );
  });

  test('applying a template fills the fields and the destination, keeps everything typed, and saves nothing', async () => {
    const template = (
      await api('POST', '/api/v1/utm-templates', {
        name: 'Spring mail',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'spring',
      })
    ).body.data;
    const form = await me.get('/links/new');
    assert.match(form.text, new RegExp(`<option value="${template.id}">Spring mail</option>`));
    assert.match(
      form.text,
      /<button type="submit" class="secondary" name="utm_apply" value="1" formaction="\/links\/new#f-utm_template">Apply template<\/button>/,
    );
    const before = await linkCount();
    const applied = await me.post(
      '/links/new',
      {
        url: 'https://example.com/x?utm_term=old',
        alias: 'kept-alias',
        title: 'Kept title',
        utm_base: '',
        ...NONE,
        utm_content: 'typed',
        utm_template: String(template.id),
        utm_apply: '1',
      },
      { from: '/links/new' },
    );
    assert.equal(applied.status, 200, applied.text.slice(0, 1500));
    assert.equal(await linkCount(), before, 'nothing saved');
    assert.match(applied.text, /<p class="flash" role="status">/);
    assert.equal(
      valueOf(applied.text, 'url')!.replace(/&amp;/g, '&'),
      'https://example.com/x?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
    );
    assert.equal(valueOf(applied.text, 'alias'), 'kept-alias');
    assert.equal(valueOf(applied.text, 'title'), 'Kept title');
    assert.equal(valueOf(applied.text, 'utm_campaign'), 'spring');
    assert.equal(valueOf(applied.text, 'utm_content'), '');
    assert.match(applied.text, new RegExp(`<option value="${template.id}" selected>`));

    // Saving the page as it came back stores what it shows.
    const url = valueOf(applied.text, 'url')!.replace(/&amp;/g, '&');
    const saved = await me.post(
      '/links/new',
      {
        url,
        alias: 'kept-alias',
        utm_base: url,
        ...NONE,
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'spring',
      },
      { from: '/links/new' },
    );
    assert.equal(saved.status, 303, saved.text.slice(0, 1500));
    assert.equal((await linkOf(idFrom(saved.location))).url, url);
  });

  test("no template chosen, or another account's, is a 422 naming the picker; nothing saved", async () => {
    await api('POST', '/api/v1/utm-templates', { name: 'Mine' });
    const theirs = (await api('POST', '/api/v1/utm-templates', { name: 'Theirs', utm_source: 'x' }, otherKey)).body
      .data;
    const before = await linkCount();
    for (const [choice, message] of [
      ['', 'The utm template field is required.'],
      [String(theirs.id), 'The selected utm template is invalid.'],
      ['99999999999', 'The selected utm template is invalid.'],
    ] as const) {
      const reply = await me.post(
        '/links/new',
        { url: 'https://example.com/', alias: 'picker', utm_base: '', ...NONE, utm_template: choice, utm_apply: '1' },
        { from: '/links/new' },
      );
      assert.equal(reply.status, 422, choice);
      assert.equal(fieldError(reply.text, 'utm_template'), message);
      assert.equal(valueOf(reply.text, 'alias'), 'picker');
    }
    assert.equal(await linkCount(), before);
  });

  test('a bad field is a 422 naming it, the input kept; the composed destination passes the URL rules or is refused; nothing written', async () => {
    const before = await linkCount();
    const long = await me.post(
      '/links/new',
      { url: 'https://example.com/', utm_base: '', ...NONE, utm_source: 's'.repeat(201), utm_medium: 'cpc' },
      { from: '/links/new' },
    );
    assert.equal(long.status, 422);
    assert.equal(fieldError(long.text, 'utm_source'), 'The utm source field must not be greater than 200 characters.');
    assert.equal(valueOf(long.text, 'utm_medium'), 'cpc');
    assert.equal(valueOf(long.text, 'utm_source'), 's'.repeat(201));
    assert.match(long.text, /<a href="#f-utm_source">/);

    const both = await me.post(
      '/links/new',
      { url: 'not a url', alias: 'bad alias!', utm_base: '', ...NONE, utm_term: 'a\u0001' },
      { from: '/links/new' },
    );
    assert.equal(both.status, 422);
    assert.ok(fieldError(both.text, 'url'), 'the link’s own faults are named with the builder’s');
    assert.ok(fieldError(both.text, 'alias'));
    assert.equal(fieldError(both.text, 'utm_term'), 'The utm term format is invalid.');

    const tooLong = await me.post(
      '/links/new',
      {
        url: `https://example.com/${'p'.repeat(1500)}`,
        utm_base: '',
        ...NONE,
        utm_source: 's'.repeat(200),
        utm_medium: 'm'.repeat(200),
        utm_campaign: 'c'.repeat(200),
      },
      { from: '/links/new' },
    );
    assert.equal(tooLong.status, 422);
    assert.ok(fieldError(tooLong.text, 'url'), 'the composed destination is judged like any');
    assert.equal(valueOf(tooLong.text, 'utm_campaign'), 'c'.repeat(200));

    const scheme = await me.post(
      '/links/new',
      { url: 'javascript:alert(1)', utm_base: '', ...NONE, utm_source: 'x' },
      { from: '/links/new' },
    );
    assert.equal(scheme.status, 422);
    assert.ok(fieldError(scheme.text, 'url'));
    assert.equal(await linkCount(), before);
  });
});
