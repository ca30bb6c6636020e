// Issue 50: GET /tls/allowed, the `ask` of Caddy's on-demand TLS (docs/operations.md, docs/api.md §11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainToASCII } from 'node:url';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { makeDomain, uniqueHost, visit } from './redirect-support.ts';

const ask = (h: Harness, domain: string) => visit(h, `/tls/allowed?domain=${encodeURIComponent(domain)}`, {}, 'GET');

onEachEngine('GET /tls/allowed', (h) => {
  test("the app's host and a verified domain: 200; a pending claim, an unknown name: 404; no name: 400", async () => {
    const { key } = await h().account();
    const verified = await makeDomain(h(), key);
    const pending = await h().request('POST', '/api/v1/domains', { key, form: { name: uniqueHost() } });
    assert.equal(pending.status, 201, pending.text);

    const app = await ask(h(), 'short.test');
    assert.equal(app.status, 200, app.text);
    assert.deepEqual(JSON.parse(app.text), { domain: 'short.test', allowed: true });
    assert.equal((await ask(h(), verified.name)).status, 200);
    // Compared as stored: lower case, without the trailing dot.
    assert.equal((await ask(h(), `${verified.name.toUpperCase()}.`)).status, 200);
    assert.equal((await ask(h(), pending.body.data.name)).status, 404);
    assert.equal((await ask(h(), uniqueHost())).status, 404);
    // An internationalised name is compared in punycode: not a domain here, but a name.
    assert.equal((await ask(h(), 'bücher.example')).status, 404);
    const label = `bücher-${verified.id}`;
    const idn = await makeDomain(h(), key, { name: `${domainToASCII(label)}.example.com` });
    assert.equal((await ask(h(), `${label.toUpperCase()}.example.com.`)).status, 200, 'asked in Unicode');
    assert.equal((await ask(h(), idn.name)).status, 200, 'asked in punycode');
    for (const bad of ['', 'nodots', '127.0.0.1', 'a..b.example', 'a b.example', 'x'.repeat(2000)]) {
      assert.equal((await ask(h(), bad)).status, 400, `"${bad.slice(0, 20)}" is no host name`);
    }
    assert.equal((await visit(h(), '/tls/allowed')).status, 400, 'no domain at all');
    const many = await visit(h(), `/tls/allowed?domain=${verified.name}&domain=${verified.name}`);
    assert.equal(many.status, 400, 'two names at once');
  });

  test('a reserved name and a suspended workspace get no certificate; freed again, they do', async () => {
    const { id, key } = await h().account();
    const domain = await makeDomain(h(), key);
    const operator = h().server.container.domainOperator;
    await operator.reserve(domain.name);
    assert.equal((await ask(h(), domain.name)).status, 404, 'reserved after it was verified');
    await operator.unreserve(domain.name);
    assert.equal((await ask(h(), domain.name)).status, 200);

    const admin = h().server.container.admin;
    const other = await h().account();
    const operatorAccount = await h().server.container.accounts.getAccount(other.id);
    await admin.suspend(operatorAccount, id);
    assert.equal((await ask(h(), domain.name)).status, 404, 'its workspace is suspended');
    await admin.reinstate(id);
    assert.equal((await ask(h(), domain.name)).status, 200);
  });

  test('/tls is no alias: the route is the app’s', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/', alias: 'TLS' },
    });
    assert.equal(res.status, 422, res.text);
  });
});
