import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

/** At most this many bytes of HTML, CSS and JavaScript a page, each as the server sends it. */
const PAGE_BUDGET = 100 * 1024;
const MAX_PAGES = 120;

interface Crawled {
  path: string;
  text: string;
  bytes: number;
}

/** Bytes on the wire: Content-Length of what was sent (compressed when it was), else the body's. */
function wireBytes(res: { headers: Headers; text: string }): number {
  const length = res.headers.get('content-length');
  return length !== null ? Number(length) : Buffer.byteLength(res.text);
}

/**
 * Every page of the app a browser can reach by following links from `start`, its query kept but
 * each path opened once (a table's pages and periods are the same page).
 */
async function crawl(client: WebClient, start: readonly string[]): Promise<Crawled[]> {
  const seen = new Set<string>();
  const queue = [...start];
  const pages: Crawled[] = [];
  while (queue.length > 0 && pages.length < MAX_PAGES) {
    const path = queue.shift()!;
    const key = path.split('?')[0]!;
    if (seen.has(key)) continue;
    seen.add(key);
    const res = await client.get(path, { 'accept-encoding': 'br, gzip' });
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/html')) continue;
    pages.push({ path, text: res.text, bytes: wireBytes(res) });
    for (const [, href] of res.text.matchAll(/<a [^>]*href="(\/[^"#]*)"/g)) {
      const target = href!.replaceAll('&amp;', '&');
      // /docs is Swagger UI's page, not the app's; short links are visits, not pages.
      if (!target.startsWith('//') && !target.startsWith('/docs') && !seen.has(target.split('?')[0]!))
        queue.push(target);
    }
  }
  return pages;
}

/** The stylesheet and script a page loads, in bytes as served to a browser that takes brotli. */
async function assetBytes(h: Harness, page: string, cache: Map<string, number>): Promise<number> {
  let total = 0;
  for (const [, src] of page.matchAll(/<(?:link rel="stylesheet" href|script src)="(\/assets\/[^"]+)"/g)) {
    if (!cache.has(src!)) {
      const res = await fetch(h.baseUrl + src!, { headers: { 'accept-encoding': 'br, gzip' } });
      assert.equal(res.status, 200, src);
      cache.set(src!, Number(res.headers.get('content-length')));
      await res.arrayBuffer();
    }
    total += cache.get(src!)!;
  }
  return total;
}

onEachEngine('web: every page', (h) => {
  let signedIn: Crawled[] = [];
  let signedOut: Crawled[] = [];

  before(async () => {
    const { client, email } = await signedUp(h().baseUrl);
    const { apiKey } = await h().server.container.accounts.createKey(email, 'test', TEST_ACTOR);
    const space = await h().request('POST', '/api/v1/spaces', { key: apiKey, form: { name: 'Work' } });
    assert.equal(space.status, 201, space.text);
    for (const n of [1, 2, 3]) {
      const link = await h().request('POST', '/api/v1/links', {
        key: apiKey,
        form: { url: `https://example.com/${n}`, space: space.body.data.id },
      });
      assert.equal(link.status, 201, link.text);
    }
    signedIn = await crawl(client, ['/', '/dashboard']);
    signedOut = await crawl(new WebClient(h().baseUrl), ['/']);
  });

  test('the crawl reached the screens (links, a link, its statistics, account, admin) and the signed-out ones', () => {
    const paths = signedIn.map((p) => p.path.split('?')[0]);
    for (const path of [
      '/dashboard',
      '/links',
      '/links/new',
      '/links/bulk',
      '/pixels',
      '/spaces',
      '/domains',
      '/webhooks',
      '/webhooks/new',
      '/account',
      '/admin',
      '/admin/data',
      '/privacy',
    ])
      assert.ok(paths.includes(path), path);
    assert.ok(
      paths.some((p) => /^\/links\/\d+\/edit$/.test(p!)),
      paths.join(' '),
    );
    assert.ok(
      paths.some((p) => /^\/stats\/\d+$/.test(p!)),
      paths.join(' '),
    );
    const out = signedOut.map((p) => p.path);
    for (const path of ['/', '/login', '/signup', '/privacy']) assert.ok(out.includes(path), out.join(' '));
  });

  test('no form carries a CSRF token, or any token, in its action: tokens ride in bodies and headers', () => {
    for (const page of [...signedIn, ...signedOut]) {
      for (const [, action] of page.text.matchAll(/<form [^>]*action="([^"]*)"/g)) {
        assert.doesNotMatch(action!, /[?&](_?csrf|token)[^=&]*=/i, `${page.path}: ${action}`);
      }
      assert.doesNotMatch(page.text, /(href|src|formaction)="[^"]*[?&]_csrf=/i, page.path);
    }
  });

  test('every page names the icons and the manifest in its head', () => {
    for (const page of [...signedIn, ...signedOut]) {
      const head = /<head>[\s\S]*<\/head>/.exec(page.text)?.[0] ?? '';
      assert.match(head, /<link rel="icon" href="\/favicon\.ico"/, page.path);
      assert.match(head, /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml">/, page.path);
      assert.match(head, /<link rel="manifest" href="\/manifest\.webmanifest">/, page.path);
    }
  });

  test('every page weighs at most 100 KB as served: its HTML, stylesheet and script', async () => {
    const cache = new Map<string, number>();
    for (const page of [...signedIn, ...signedOut]) {
      const total = page.bytes + (await assetBytes(h(), page.text, cache));
      assert.ok(total <= PAGE_BUDGET, `${page.path}: ${total} bytes`);
    }
  });
});
