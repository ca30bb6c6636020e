import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { onEachEngine, type Harness } from '../../support/harness.ts';

/** A request with a Host of the client's choosing (fetch does not let a test set one). */
function onHost(
  h: Harness,
  method: string,
  path: string,
  host: string,
  key: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(h.baseUrl);
  const headers: Record<string, string> = {
    host,
    authorization: `Bearer ${key}`,
    'x-forwarded-host': 'forwarded.evil.test',
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

onEachEngine('API: short URLs come from APP_URL, never from the request', (h) => {
  test('a request with another Host gets short_url on APP_URL: created, read, listed and exported', async () => {
    const { key } = await h().account();
    const created = await onHost(
      h(),
      'POST',
      '/api/v1/links',
      'evil.test',
      key,
      JSON.stringify({ url: 'https://example.com/a', alias: 'hosted' }),
    );
    assert.equal(created.status, 201, created.text);
    const record = JSON.parse(created.text) as { data: { id: number; short_url: string } };
    assert.equal(record.data.short_url, `${h().config.APP_URL}/hosted`);

    const read = await onHost(h(), 'GET', `/api/v1/links/${record.data.id}`, 'evil.test', key);
    assert.equal(
      (JSON.parse(read.text) as { data: { short_url: string } }).data.short_url,
      `${h().config.APP_URL}/hosted`,
    );
    const listed = await onHost(h(), 'GET', '/api/v1/links', 'evil.test', key);
    assert.deepEqual(
      (JSON.parse(listed.text) as { data: { short_url: string }[] }).data.map((l) => l.short_url),
      [`${h().config.APP_URL}/hosted`],
    );
    const csv = await onHost(h(), 'GET', '/api/v1/links/export', 'evil.test', key);
    assert.equal(csv.status, 200, csv.text);
    assert.ok(csv.text.includes(`${h().config.APP_URL}/hosted`), csv.text);
    for (const text of [created.text, read.text, listed.text, csv.text]) assert.doesNotMatch(text, /evil\.test/);
  });
});
