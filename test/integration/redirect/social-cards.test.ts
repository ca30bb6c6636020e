// Link previews (docs/design/social-cards.md): a link's social_card through the API, its defaults
// from the title fetch, and what an unfurler gets from the redirect instead of a person's redirect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { PageFacts, TitleFetcher } from '../../../src/core/links/title-fetcher.ts';
import { BROWSER, clickCounts, makeLink, readLink, visit } from './redirect-support.ts';

const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const TWITTER = 'Twitterbot/1.0';

/** The destination's page, as the title fetcher would read it, for any URL under /og/. */
const pages: TitleFetcher = {
  fetchTitle: async (url) => (url.includes('/og/') ? 'Page title' : null),
  fetchPage: async (url): Promise<PageFacts | null> =>
    url.includes('/og/')
      ? {
          title: 'Page title',
          card: { title: 'OG title', description: 'OG words', image: 'https://cdn.example/og.png' },
        }
      : null,
};

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (done(value) || i > 40) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

onEachEngine(
  'social cards',
  (h) => {
    test('create with a card: in the record; update replaces it; null clears it', async () => {
      const { key } = await h().account();
      const card = { title: 'Spring sale', description: 'Half off', image: 'https://cdn.example/s.png' };
      const made = await h().request('POST', '/api/v1/links', {
        key,
        json: { url: 'https://example.com/plain', social_card: card },
      });
      assert.equal(made.status, 201, made.text);
      assert.deepEqual(made.body.data.social_card, card);
      assert.equal(made.body.data.page_card, null);
      const id = made.body.data.id;
      const put = await h().request('PUT', `/api/v1/links/${id}`, { key, json: { social_card: { title: ' Only ' } } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body.data.social_card, { title: 'Only', description: null, image: null });
      const kept = await h().request('PUT', `/api/v1/links/${id}`, { key, json: { title: 'x' } });
      assert.deepEqual(kept.body.data.social_card, { title: 'Only', description: null, image: null }, 'not sent: kept');
      const cleared = await h().request('PUT', `/api/v1/links/${id}`, { key, json: { social_card: null } });
      assert.equal(cleared.body.data.social_card, null);
      const blank = await h().request('PUT', `/api/v1/links/${id}`, {
        key,
        form: { 'social_card[title]': '', 'social_card[description]': '', 'social_card[image]': '' },
      });
      assert.equal(blank.status, 200, blank.text);
      assert.equal(blank.body.data.social_card, null, 'a form of blank fields: no card of its own');
    });

    test('a bad image URL is a 422 naming social_card.image, and nothing is written', async () => {
      const { key } = await h().account();
      for (const image of ['http://cdn.example/a.png', 'javascript:alert(1)', 'https://', 'not a url']) {
        const res = await h().request('POST', '/api/v1/links', {
          key,
          json: { url: 'https://example.com/bad', social_card: { image } },
        });
        assert.equal(res.status, 422, `${image}: ${res.text}`);
        assert.deepEqual(Object.keys(res.body.message), ['social_card.image']);
      }
      const long = await h().request('POST', '/api/v1/links', {
        key,
        json: { url: 'https://example.com/bad', social_card: { title: 'x'.repeat(256), description: 'y'.repeat(501) } },
      });
      assert.equal(long.status, 422);
      assert.deepEqual(Object.keys(long.body.message).sort(), ['social_card.description', 'social_card.title']);
      const list = await h().request('GET', '/api/v1/links', { key });
      assert.equal(list.body.data.length, 0);
    });

    test("defaults: the link's title and the destination's og: tags, fetched with the title", async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, { url: 'https://example.com/og/page' });
      const read = await eventually(
        () => readLink(h(), key, link.id),
        (l) => l.page_card !== null && l.title !== null,
      );
      assert.equal(read.title, 'Page title');
      assert.deepEqual(read.page_card, {
        title: 'OG title',
        description: 'OG words',
        image: 'https://cdn.example/og.png',
      });
      const res = await visit(h(), `/${link.alias}`, { 'user-agent': TWITTER });
      assert.equal(res.status, 200);
      assert.match(res.text, /<meta property="og:title" content="Page title">/, "the link's title first");
      assert.match(res.text, /<meta property="og:description" content="OG words">/);
      assert.match(res.text, /<meta name="twitter:card" content="summary_large_image">/);
    });

    test('an unfurler gets the card, a browser the redirect; only the browser is a click', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, {
        url: 'https://example.com/landing',
        'social_card[title]': 'A "quoted" <title>',
        'social_card[image]': 'https://cdn.example/c.png',
      });
      const card = await visit(h(), `/${link.alias}`, { 'user-agent': SLACK });
      assert.equal(card.status, 200);
      assert.match(String(card.headers['content-type']), /^text\/html/);
      assert.match(card.text, /<meta property="og:title" content="A &quot;quoted&quot; &lt;title&gt;">/);
      assert.match(card.text, /<meta property="og:image" content="https:\/\/cdn.example\/c.png">/);
      assert.match(card.text, new RegExp(`<meta property="og:url" content="http://short.test/${link.alias}">`));
      const person = await visit(h(), `/${link.alias}`, { 'user-agent': BROWSER });
      assert.equal(person.status, 302);
      assert.equal(person.location, 'https://example.com/landing');
      assert.deepEqual(
        await eventually(
          () => clickCounts(h(), link.id),
          (c) => c.bot + c.human >= 2,
        ),
        {
          human: 1,
          bot: 1,
        },
      );
      assert.equal((await readLink(h(), key, link.id)).clicks, 1);
    });

    test('no card for a password-protected or disabled link', async () => {
      const { key } = await h().account();
      const card = { 'social_card[title]': 'Secret' };
      const locked = await makeLink(h(), key, { ...card, password: 'hunter22' });
      const res = await visit(h(), `/${locked.alias}`, { 'user-agent': SLACK });
      assert.equal(res.status, 200);
      assert.doesNotMatch(res.text, /og:title/);
      assert.match(res.text, /type="password"/);
      const off = await makeLink(h(), key, { ...card, disabled: 1 });
      const gone = await visit(h(), `/${off.alias}`, { 'user-agent': SLACK });
      assert.equal(gone.status, 404);
      assert.doesNotMatch(gone.text, /og:title/);
    });
  },
  { overrides: { titles: pages } },
);
