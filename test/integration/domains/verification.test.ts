// Issue 14, finding 7: a custom domain serves only once its owner proves control of the name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { assertPage, makeLink, redirectsTo, uniqueHost, visit } from '../redirect/redirect-support.ts';

interface DomainRecord {
  id: number;
  name: string;
  status: 'pending' | 'verified';
  verified_at: string | null;
  verification: { token: string; txt_name: string; file_url: string };
}

async function claim(h: Harness, key: string, name = uniqueHost()): Promise<DomainRecord> {
  const res = await h.request('POST', '/api/v1/domains', { key, form: { name } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const verify = (h: Harness, key: string, id: number) => h.request('POST', `/api/v1/domains/${id}/verify`, { key });

onEachEngine('domains: proof of control', (h) => {
  test('a pending domain takes links but serves none; once verified they answer', async () => {
    const { key } = await h().account();
    const domain = await claim(h(), key);
    assert.equal(domain.status, 'pending');
    // phpShort clients keep creating links on it.
    const link = await makeLink(h(), key, { url: 'https://example.com/pending', domain: domain.id });
    assert.equal(link.short_url, `https://${domain.name}/${link.alias}`);
    assertPage(await visit(h(), `/${link.alias}`, { host: domain.name }), 404, 'Link not found');
    assert.equal((await visit(h(), `/${link.alias}`, { host: domain.name }, 'HEAD')).status, 404);

    h().dns.publishTxt(domain.verification.txt_name, domain.verification.token);
    const verified = await verify(h(), key, domain.id);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.data.status, 'verified');
    assert.match(verified.body.data.verified_at, /Z$/);
    // The redirect's cache had the alias as unknown on that host: verifying drops it.
    assert.equal(await redirectsTo(h(), `/${link.alias}`, { host: domain.name }), 'https://example.com/pending');
    // Verifying again changes nothing; a body, form or JSON, is ignored.
    for (const body of [{}, { json: {} }, { form: { x: '1' } }]) {
      const again = await h().request('POST', `/api/v1/domains/${domain.id}/verify`, { key, ...body });
      assert.deepEqual(again.body, { data: verified.body.data, status: 200 });
    }
  });

  test("a pending domain's host is served as any unknown host: its root is not the domain's", async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/domains', {
      key,
      form: { name: uniqueHost(), index_page: 'https://example.com/home' },
    });
    const root = await visit(h(), '/', { host: res.body.data.name });
    assert.equal(root.status, 200, "the app's own root page, not the index_page redirect");
  });

  test('a TXT record of several strings, beside other records, proves control', async () => {
    const { key } = await h().account();
    const domain = await claim(h(), key);
    const { token, txt_name: txtName } = domain.verification;
    h().dns.publishTxt(txtName, 'v=spf1 -all');
    h().dns.publishTxt(txtName, token.slice(0, 10), token.slice(10));
    assert.equal((await verify(h(), key, domain.id)).body.data.status, 'verified');
  });

  test('a wrong or missing token is a 422 naming what was looked for; the domain stays pending', async () => {
    const { key } = await h().account();
    const domain = await claim(h(), key);
    const nothing = await verify(h(), key, domain.id);
    assert.equal(nothing.status, 422);
    assert.deepEqual(Object.keys(nothing.body.message), ['verification']);
    const [dns, file] = nothing.body.message.verification as string[];
    assert.match(
      dns!,
      new RegExp(`TXT record ${domain.verification.txt_name.replace(/\./g, '\\.')}.*: no TXT record\\.$`),
    );
    assert.ok(file!.includes(domain.verification.file_url), file);

    // Someone else's token (another claim of the same name) is not this claim's proof.
    const other = await h().account();
    const rival = await claim(h(), other.key, domain.name);
    h().dns.publishTxt(
      domain.verification.txt_name,
      rival.verification.token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    );
    const wrong = await verify(h(), key, domain.id);
    assert.equal(wrong.status, 422);
    assert.match(wrong.body.message.verification[0], /1 TXT record\(s\), none is the token/);
    assert.equal((await h().request('GET', `/api/v1/domains/${domain.id}`, { key })).body.data.status, 'pending');
    // Another account's domain is not found, verified or not.
    assert.equal((await verify(h(), other.key, domain.id)).status, 404);
  });

  test('two accounts claim one name: the first to verify wins, the other claim stays pending and cannot verify', async () => {
    const [a, b] = [await h().account(), await h().account()];
    const name = uniqueHost('contested');
    const [first, second] = [await claim(h(), a.key, name), await claim(h(), b.key, name)];
    const linkA = await makeLink(h(), a.key, { url: 'https://example.com/a', domain: first.id, alias: 'same' });
    await makeLink(h(), b.key, { url: 'https://example.com/b', domain: second.id, alias: 'same' });
    h().dns.publishTxt(`_linkpix.${name}`, second.verification.token);
    assert.equal((await verify(h(), b.key, second.id)).status, 200);
    assert.equal(await redirectsTo(h(), '/same', { host: name }), 'https://example.com/b');

    h().dns.publishTxt(`_linkpix.${name}`, first.verification.token);
    const late = await verify(h(), a.key, first.id);
    assert.equal(late.status, 422);
    assert.deepEqual(late.body.message, { name: ['The name has already been taken.'] });
    // The losing claim keeps its links (nothing of a's is deleted), and they do not answer.
    assert.equal((await h().request('GET', `/api/v1/links/${linkA.id}`, { key: a.key })).status, 200);
    // When the winner lets the name go, the other claim can verify.
    assert.equal((await h().request('DELETE', `/api/v1/domains/${second.id}`, { key: b.key })).status, 200);
    assert.equal((await verify(h(), a.key, first.id)).status, 200);
    assert.equal(await redirectsTo(h(), '/same', { host: name }), 'https://example.com/a');
  });

  test('a renamed domain proves control of its new name: pending again, with a new token', async () => {
    const { key } = await h().account();
    const domain = await claim(h(), key);
    h().dns.publishTxt(domain.verification.txt_name, domain.verification.token);
    await verify(h(), key, domain.id);
    const link = await makeLink(h(), key, { url: 'https://example.com/renamed', domain: domain.id });
    const newName = uniqueHost('renamed');
    const put = await h().request('PUT', `/api/v1/domains/${domain.id}`, { key, form: { name: newName } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.data.status, 'pending');
    assert.notEqual(put.body.data.verification.token, domain.verification.token);
    assertPage(await visit(h(), `/${link.alias}`, { host: newName }), 404, 'Link not found');
    // Other fields change without a new proof.
    const same = await h().request('PUT', `/api/v1/domains/${domain.id}`, {
      key,
      form: { name: newName, index_page: 'https://example.com/i' },
    });
    assert.equal(same.body.data.verification.token, put.body.data.verification.token);
  });

  test('a reserved name cannot be claimed or verified; the app host never', async () => {
    const { key } = await h().account();
    const pending = await claim(h(), key);
    const operator = h().server.container.domainOperator;
    await operator.reserve(pending.name.toUpperCase());
    const other = await h().account();
    const refused = await h().request('POST', '/api/v1/domains', { key: other.key, form: { name: pending.name } });
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.body.message, { name: ['The name is reserved.'] });
    assert.equal(
      (await h().request('GET', '/api/v1/domains', { key: other.key })).body.meta.total,
      0,
      'a refused claim writes nothing',
    );
    h().dns.publishTxt(pending.verification.txt_name, pending.verification.token);
    const verify1 = await verify(h(), key, pending.id);
    assert.equal(verify1.status, 422);
    assert.deepEqual(verify1.body.message, { name: ['The name is reserved.'] });
    await operator.unreserve(pending.name);
    assert.equal((await verify(h(), key, pending.id)).status, 200);

    for (const name of ['short.test', 'SHORT.test']) {
      const app = await h().request('POST', '/api/v1/domains', { key, form: { name } });
      assert.equal(app.status, 422);
      assert.deepEqual(app.body.message, { name: ['The name has already been taken.'] });
    }
  });
});

onEachEngine(
  'domains: DOMAIN_VERIFICATION=off',
  (h) => {
    test('a new domain serves at once, and its name is first come, first served', async () => {
      const [a, b] = [await h().account(), await h().account()];
      const res = await h().request('POST', '/api/v1/domains', { key: a.key, form: { name: uniqueHost() } });
      assert.equal(res.status, 201);
      assert.equal(res.body.data.status, 'verified');
      const link = await makeLink(h(), a.key, { url: 'https://example.com/trusted', domain: res.body.data.id });
      assert.equal(
        await redirectsTo(h(), `/${link.alias}`, { host: res.body.data.name }),
        'https://example.com/trusted',
      );
      const second = await h().request('POST', '/api/v1/domains', { key: b.key, form: { name: res.body.data.name } });
      assert.equal(second.status, 422);
      assert.deepEqual(second.body.message, { name: ['The name has already been taken.'] });
      const app = await h().request('POST', '/api/v1/domains', { key: b.key, form: { name: 'short.test' } });
      assert.equal(app.status, 422);
      assert.equal(
        (await h().request('GET', '/api/v1/domains', { key: b.key })).body.meta.total,
        0,
        'refused claims write nothing',
      );
      // Nothing looked at DNS.
      assert.deepEqual(h().dns.asked, []);
    });
  },
  { env: { DOMAIN_VERIFICATION: 'off' } },
);
