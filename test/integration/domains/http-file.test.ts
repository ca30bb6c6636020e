// Issue 14, finding 7: proof by a file over HTTP, served by a local listener that stands in
// for http://<domain>/ (the fake DNS points the name at 127.0.0.1; the check's port replaces 80).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENGINES, startHarness, type Harness } from '../../support/harness.ts';
import { FakeDns } from '../../support/fake-dns.ts';
import { makeLink, redirectsTo, uniqueHost } from '../redirect/redirect-support.ts';

for (const engine of ENGINES) {
  describe(`domains: proof by an HTTP file [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    const files = new Map<string, string>();
    const requests: string[] = [];
    const listener = http.createServer((req, res) => {
      requests.push(`${req.headers.host?.split(':')[0]} ${req.url}`);
      const body = files.get(`${req.headers.host?.split(':')[0]}${req.url}`);
      res.statusCode = body === undefined ? 404 : 200;
      res.end(body ?? 'not here');
    });
    const dns = new FakeDns();
    let h: Harness;

    before(async () => {
      listener.listen(0, '127.0.0.1');
      await once(listener, 'listening');
      const port = (listener.address() as AddressInfo).port;
      h = await startHarness(engine.name, {
        dns,
        overrides: { domainChecks: dns.checks({ allowPrivate: true, port }) },
      });
    });
    after(async () => {
      await h?.close();
      listener.closeAllConnections();
      listener.close();
    });

    test('the token served at the file URL verifies the domain, and its links answer', async () => {
      const { key } = await h.account();
      const name = uniqueHost('web');
      dns.pointAt(name, '127.0.0.1');
      const made = await h.request('POST', '/api/v1/domains', { key, form: { name } });
      const { id, verification } = made.body.data;
      const link = await makeLink(h, key, { url: 'https://example.com/by-file', domain: id });

      const missing = await h.request('POST', `/api/v1/domains/${id}/verify`, { key });
      assert.equal(missing.status, 422);
      assert.match(
        missing.body.message.verification[1],
        new RegExp(`the file ${verification.file_url.replace(/[./]/g, '\\$&')} holding the token: HTTP 404\\.$`),
      );
      assert.ok(
        requests.includes(`${name} /.well-known/linkpix/${verification.token}`),
        'the check asked the domain for the file',
      );

      files.set(`${name}/.well-known/linkpix/${verification.token}`, verification.token);
      const verified = await h.request('POST', `/api/v1/domains/${id}/verify`, { key });
      assert.equal(verified.status, 200, verified.text);
      assert.equal(verified.body.data.status, 'verified');
      assert.equal(await redirectsTo(h, `/${link.alias}`, { host: name }), 'https://example.com/by-file');
    });
  });
}
