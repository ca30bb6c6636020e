// What every TitleFetcher promises (src/core/links/title-fetcher.ts), as a link's background title
// fetch relies on it (docs/CONTRACT §3): a page's title, else null — never a rejection, whatever
// the page does — and no request to a loopback address unless allowed. The web is a server on
// 127.0.0.1 (no DNS); run against HttpTitleFetcher, its one implementation (unit tier).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TitleFetcher } from '../../src/core/links/title-fetcher.ts';

export interface TitleFetcherSubject {
  /** May reach loopback (as an operator allowing private addresses). */
  open: TitleFetcher;
  /** Refuses loopback, private and link-local addresses (the default). */
  guarded: TitleFetcher;
}

/** The pages of the little web the tests read, by path. */
const PAGES: Record<string, (res: http.ServerResponse) => void> = {
  '/titled': (res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<html><head><title> Ada &amp; Bob ☺ </title></head><body>x</body></html>'),
  '/untitled': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>no title</body></html>'),
  '/text': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('<title>Not HTML</title>'),
  '/missing': (res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not Found</title>'),
  '/moved': (res) => res.writeHead(302, { location: '/titled' }).end(),
  '/loop': (res) => res.writeHead(302, { location: '/loop' }).end(),
  '/broken': (res) => res.socket?.destroy(),
};

export function describeTitleFetcherContract(name: string, make: () => TitleFetcherSubject): void {
  describe(`${name}: the TitleFetcher contract`, () => {
    const server = http.createServer((req, res) => (PAGES[req.url ?? ''] ?? PAGES['/missing']!)(res));
    let base = '';
    let closed = '';
    before(async () => {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // A port nothing listens on: a server started and stopped at once.
      const gone = http.createServer().listen(0, '127.0.0.1');
      await once(gone, 'listening');
      closed = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/`;
      await new Promise((done) => gone.close(done));
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    });

    test('an HTML page’s title, trimmed and with its entities read; redirects followed', async () => {
      const { open } = make();
      assert.equal(await open.fetchTitle(`${base}/titled`), 'Ada & Bob ☺');
      assert.equal(await open.fetchTitle(`${base}/moved`), 'Ada & Bob ☺');
    });

    test('no title, not HTML, an error status, a redirect loop, a cut connection or nothing listening: null', async () => {
      const { open } = make();
      for (const path of ['/untitled', '/text', '/missing', '/loop', '/broken'])
        assert.equal(await open.fetchTitle(`${base}${path}`), null, path);
      assert.equal(await open.fetchTitle(closed), null, 'connection refused');
    });

    test('what is no http(s) URL is null without a request', async () => {
      const { open } = make();
      for (const url of [
        'not a url',
        'ftp://127.0.0.1/',
        'javascript:alert(1)',
        'data:text/html,<title>x</title>',
        '',
      ]) {
        assert.equal(await open.fetchTitle(url), null, url);
      }
    });

    test('loopback is refused unless allowed', async () => {
      const { guarded } = make();
      assert.equal(await guarded.fetchTitle(`${base}/titled`), null);
      assert.equal(await guarded.fetchTitle(`http://[::1]:1/`), null);
    });
  });
}
