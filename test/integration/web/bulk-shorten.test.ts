import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient, csrfOf } from '../../support/web-client.ts';
import { apiLinks, webAccount } from '../../support/web-resources.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The error shown next to a field (the components' `f-<name>-error`). */
function fieldError(page: string, id: string): string | null {
  const match = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(page);
  return match ? match[1]! : null;
}

/** Posts the bulk form as a browser does with a file: multipart, the CSRF token its first field. */
async function upload(
  client: WebClient,
  fields: Record<string, string | string[]>,
  file: { name: string; text: string | Buffer } | null,
  csrf?: string | null,
): Promise<{ status: number; text: string }> {
  const token = csrf === undefined ? await client.csrf('/links/bulk') : csrf;
  const boundary = '----linkpixtest7MA4YWxkTrZu0gW';
  const parts: Buffer[] = [];
  const withToken = token === null ? fields : { _csrf: token, ...fields };
  for (const [name, value] of Object.entries(withToken)) {
    for (const v of Array.isArray(value) ? value : [value])
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
  }
  const f = file ?? { name: '', text: '' };
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
  );
  parts.push(typeof f.text === 'string' ? Buffer.from(f.text) : f.text, Buffer.from(`\r\n--${boundary}--\r\n`));
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${client.baseUrl}/links/bulk`, {
    method: 'POST',
    body: Buffer.concat(parts),
    redirect: 'manual',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  return { status: res.status, text: await res.text() };
}

onEachEngine('web: bulk shortening', (h) => {
  test('anonymous: GET and POST go to the sign-in page', async () => {
    const anonymous = new WebClient(h().baseUrl);
    const page = await anonymous.get('/links/bulk');
    assert.equal(page.status, 303);
    assert.equal(page.location, '/login?next=%2Flinks%2Fbulk');
    const csrf = await anonymous.csrf('/login');
    const post = await anonymous.post('/links/bulk', { urls: 'https://a.test/', _csrf: csrf });
    assert.equal(post.status, 303);
    assert.match(post.location ?? '', /^\/login\?next=/);
  });

  test('the form: a multipart form with its CSRF token in the body (none in its action), every control labelled', async () => {
    const { client } = await webAccount(h());
    const page = await client.get('/links/bulk');
    assert.equal(page.status, 200);
    const token = csrfOf(page.text);
    assert.ok(page.text.includes(`action="/links/bulk" enctype="multipart/form-data"`), page.text);
    assert.ok(page.text.includes(`name="_csrf" value="${token}"`), page.text);
    for (const id of [
      'f-urls',
      'f-file',
      'f-domain',
      'f-space',
      'f-disabled',
      'f-expiration_date',
      'f-expiration_time',
      'f-expiration_clicks',
    ]) {
      assert.ok(page.text.includes(`for="${id}"`), `label of ${id}`);
    }
  });

  test('3 good lines and 1 bad: 3 links exist, the bad row shows its error, blank lines skipped', async () => {
    const { client, key } = await webAccount(h());
    const urls = 'https://one.test/\n\nnot a url\r\nhttps://two.test/\nhttps://three.test/\n';
    const res = await client.post('/links/bulk', { urls }, { from: '/links/bulk' });
    assert.equal(res.status, 200, res.text);
    const made = await apiLinks(h(), key);
    assert.deepEqual(made.map((l) => l.url).sort(), ['https://one.test/', 'https://three.test/', 'https://two.test/']);
    for (const link of made)
      assert.ok(res.text.includes(`<a href="${link.short_url}" class="url">${link.short_url}</a>`), link.short_url);
    assert.match(
      res.text,
      /<td class="num">3<\/td><td class="url">not a url<\/td><td><p class="field-error">The url field must be a valid URL\.?<\/p>/,
    );
    assert.match(res.text, /3 created, 1 failed\./);
    // Copy all: every short URL, newline-joined, in the button and in a read-only text area (no JS).
    const all = made
      .sort((a, b) => a.id - b.id)
      .map((l) => l.short_url)
      .join('\n');
    assert.ok(res.text.includes(`data-copy="${all}"`));
    assert.ok(res.text.includes(`readonly>${all}</textarea>`));
  });

  test('the shared options apply to every line (space, pixels, disabled, expiration)', async () => {
    const { client, key } = await webAccount(h());
    const space = await h().request('POST', '/api/v1/spaces', { key, form: { name: 'Campaign' } });
    const pixel = await h().request('POST', '/api/v1/pixels', {
      key,
      form: { name: 'GA', type: 'google-analytics', value: 'G-ABC123' },
    });
    assert.equal(space.status, 201, space.text);
    assert.equal(pixel.status, 201, pixel.text);
    const res = await client.post(
      '/links/bulk',
      {
        urls: 'https://a.test/\nhttps://b.test/',
        space: String(space.body.data.id),
        'pixels[]': [String(pixel.body.data.id)],
        disabled: '1',
        expiration_date: '2099-01-02',
        expiration_time: '10:30',
        expiration_clicks: '5',
      },
      { from: '/links/bulk' },
    );
    assert.equal(res.status, 200, res.text);
    const made = await apiLinks(h(), key);
    assert.equal(made.length, 2);
    for (const link of made) {
      assert.equal(link.space.id, space.body.data.id);
      assert.deepEqual(
        link.pixels.map((p: Json) => p.id),
        [pixel.body.data.id],
      );
      assert.equal(link.disabled, 1);
      assert.equal(link.expiration_clicks, 5);
      assert.equal(link.ends_at, '2099-01-02T10:30:00.000Z');
    }
  });

  test("a shared option's own error (another account's space, a bad number): 422 on that field, values kept, nothing created", async () => {
    const { client, key } = await webAccount(h());
    const other = await h().account();
    const foreign = await h().request('POST', '/api/v1/spaces', { key: other.key, form: { name: 'Theirs' } });
    const res = await client.post(
      '/links/bulk',
      { urls: 'https://a.test/\nhttps://b.test/', space: String(foreign.body.data.id), expiration_clicks: 'many' },
      { from: '/links/bulk' },
    );
    assert.equal(res.status, 422, res.text);
    assert.ok(fieldError(res.text, 'f-space'), 'space error');
    assert.ok(fieldError(res.text, 'f-expiration_clicks'), 'expiration_clicks error');
    assert.match(res.text, /<div class="error-summary"/);
    assert.ok(res.text.includes('https://a.test/\nhttps://b.test/</textarea>'), 'the lines are kept');
    assert.deepEqual(await apiLinks(h(), key), []);
  });

  test('expiration date without a time: 422 on expiration_time, nothing created', async () => {
    const { client, key } = await webAccount(h());
    const res = await client.post(
      '/links/bulk',
      { urls: 'https://a.test/', expiration_date: '2099-01-02' },
      { from: '/links/bulk' },
    );
    assert.equal(res.status, 422, res.text);
    assert.ok(fieldError(res.text, 'f-expiration_time'));
    assert.deepEqual(await apiLinks(h(), key), []);
  });

  test('more than 1000 lines: 422 naming the field, nothing created; no line at all: 422', async () => {
    const { client, key } = await webAccount(h());
    const urls = Array.from({ length: 1001 }, (_, i) => `https://many.test/${i}`).join('\n');
    const res = await client.post('/links/bulk', { urls }, { from: '/links/bulk' });
    assert.equal(res.status, 422, res.text);
    assert.equal(fieldError(res.text, 'f-urls'), 'The urls field must not have more than 1000 lines; it has 1001.');
    assert.deepEqual(await apiLinks(h(), key), []);
    const empty = await client.post('/links/bulk', { urls: '\n  \n' }, { from: '/links/bulk' });
    assert.equal(empty.status, 422);
    assert.ok(fieldError(empty.text, 'f-urls'));
  });

  test('a form-encoded body past the limit: 422 on urls, nothing created', async () => {
    const { client, key } = await webAccount(h());
    const res = await client.post(
      '/links/bulk',
      { urls: `https://big.test/${'x'.repeat(4 * 1024 * 1024)}` },
      { from: '/links/bulk' },
    );
    assert.equal(res.status, 422, res.text.slice(0, 300));
    assert.ok(fieldError(res.text, 'f-urls'));
    assert.deepEqual(await apiLinks(h(), key), []);
  });

  test('CSRF missing or wrong: 403 and nothing written (form-encoded and multipart)', async () => {
    const { client, key } = await webAccount(h());
    const missing = await client.send('POST', '/links/bulk', 'urls=https%3A%2F%2Fa.test%2F', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(missing.status, 403);
    const wrong = await client.post('/links/bulk', { urls: 'https://a.test/', _csrf: 'wrong' });
    assert.equal(wrong.status, 403);
    const file = { name: 'links.csv', text: 'url\nhttps://a.test/\n' };
    assert.equal((await upload(client, {}, file, null)).status, 403);
    assert.equal((await upload(client, {}, file, 'wrong')).status, 403);
    // Another browser's token does not do either.
    const { client: stranger } = await webAccount(h());
    assert.equal((await upload(client, {}, file, await stranger.csrf('/links/bulk'))).status, 403);
    // The token in the URL, where it used to ride, counts for nothing.
    const token = await client.csrf('/links/bulk');
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const inQuery = await fetch(`${client.baseUrl}/links/bulk?_csrf=${encodeURIComponent(token)}`, {
      method: 'POST',
      body: '--B\r\nContent-Disposition: form-data; name="urls"\r\n\r\nhttps://a.test/\r\n--B--\r\n',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'multipart/form-data; boundary=B' },
    });
    assert.equal(inQuery.status, 403);
    assert.deepEqual(await apiLinks(h(), key), []);
  });

  test('a CSV upload: columns by header, alias and title per row, a bad row reported with its file line', async () => {
    const { client, key } = await webAccount(h());
    const csv =
      'title,url,alias\r\n"Home, sweet",https://home.test/,home-page\r\nPlain,https://plain.test/,\r\n,https://bad.test/,bad alias!\r\n';
    const res = await upload(client, { urls: '', domain: '', space: '' }, { name: 'links.csv', text: csv });
    assert.equal(res.status, 200, res.text);
    const made = await apiLinks(h(), key);
    assert.deepEqual(made.map((l) => [l.url, l.title]).sort(), [
      ['https://home.test/', 'Home, sweet'],
      ['https://plain.test/', 'Plain'],
    ]);
    assert.equal(made.find((l) => l.url === 'https://home.test/').alias, 'home-page');
    assert.match(
      res.text,
      /<td class="num">4<\/td><td class="url">https:\/\/bad\.test\/<\/td><td><p class="field-error">[^<]*alias[^<]*<\/p>/,
    );
  });

  test('a CSV upload with shared options as multipart fields (pixels[] as a list)', async () => {
    const { client, key } = await webAccount(h());
    const p1 = await h().request('POST', '/api/v1/pixels', {
      key,
      form: { name: 'One', type: 'google-analytics', value: 'G-ONE' },
    });
    const p2 = await h().request('POST', '/api/v1/pixels', {
      key,
      form: { name: 'Two', type: 'google-analytics', value: 'G-TWO' },
    });
    const res = await upload(
      client,
      { 'pixels[]': [String(p1.body.data.id), String(p2.body.data.id)], disabled: '1' },
      { name: 'x.csv', text: 'url\nhttps://a.test/\n' },
    );
    assert.equal(res.status, 200, res.text);
    const [link] = await apiLinks(h(), key);
    assert.deepEqual(link.pixels.map((p: Json) => p.id).sort(), [p1.body.data.id, p2.body.data.id].sort());
    assert.equal(link.disabled, 1);
  });

  test('a CSV without a url header, with unknown columns, badly quoted, not UTF-8, with text too, or too large: 422 on the file, nothing created', async () => {
    const { client, key } = await webAccount(h());
    const cases: Array<[Record<string, string>, string | Buffer]> = [
      [{}, 'https://a.test/\nhttps://b.test/\n'],
      [{}, 'url,tags\nhttps://a.test/,x\n'],
      [{}, 'url\n"https://a.test/\n'],
      [{}, Buffer.from('url\nhttps://caf\u00e9.test/\n', 'latin1')],
      [{ urls: 'https://c.test/' }, 'url\nhttps://a.test/\n'],
      [{}, `url\nhttps://big.test/${'x'.repeat(3 * 1024 * 1024)}\n`],
      [{}, `url\n${Array.from({ length: 1001 }, (_, i) => `https://many.test/${i}`).join('\n')}`],
    ];
    for (const [fields, text] of cases) {
      const res = await upload(client, fields, { name: 'x.csv', text });
      const what = String(text).slice(0, 40);
      assert.equal(res.status, 422, what);
      assert.ok(fieldError(res.text, 'f-file'), what);
    }
    assert.deepEqual(await apiLinks(h(), key), []);
  });

  test('a malformed multipart body (no boundary, a part never ended): the 400 page, nothing created, never a 500', async () => {
    const { client, key } = await webAccount(h());
    const token = await client.csrf('/links/bulk');
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const post = async (contentType: string, body: string) => {
      const res = await fetch(`${client.baseUrl}/links/bulk`, {
        method: 'POST',
        body,
        redirect: 'manual',
        headers: { cookie, 'content-type': contentType, 'x-csrf-token': token },
      });
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };
    const noBoundary = await post('multipart/form-data', 'urls=https://a.test/');
    const unterminated = await post(
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="urls"\r\n\r\nhttps://a.test/',
    );
    for (const res of [noBoundary, unterminated]) {
      assert.equal(res.status, 400, res.text);
      assert.match(res.type ?? '', /^text\/html/);
    }
    assert.deepEqual(await apiLinks(h(), key), []);
  });

  test('the result CSV: posted back from the result page, with the errors; a tampered result is refused', async () => {
    const { client } = await webAccount(h());
    const res = await client.post(
      '/links/bulk',
      { urls: 'https://one.test/\n=HYPERLINK("x")' },
      { from: '/links/bulk' },
    );
    assert.equal(res.status, 200, res.text);
    const results = /name="results" value="([^"]*)"/
      .exec(res.text)![1]!
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'");
    const csv = await client.post('/links/bulk/result.csv', { results, _csrf: csrfOf(res.text) });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(csv.headers.get('content-disposition') ?? '', /^attachment; filename="bulk-links\.csv"$/);
    const lines = csv.text.split('\r\n');
    assert.equal(lines[0], 'line,url,short_url,error');
    assert.match(lines[1]!, /^1,https:\/\/one\.test\/,http:\/\/short\.test\/[A-Za-z0-9]+,$/);
    // A line that looks like a formula is text in a spreadsheet.
    assert.match(lines[2]!, /^2,"'=HYPERLINK\(""x""\)",,The url field/);
    const tampered = await client.post('/links/bulk/result.csv', {
      results: '{"not":"rows"}',
      _csrf: csrfOf(res.text),
    });
    assert.equal(tampered.status, 422);
    const forged = await client.post('/links/bulk/result.csv', { results, _csrf: 'wrong' });
    assert.equal(forged.status, 403);
  });

  test('typed markup comes out escaped: a bad line and a CSV title', async () => {
    const { client, key } = await webAccount(h());
    const res = await client.post('/links/bulk', { urls: '<script>alert(1)</script>' }, { from: '/links/bulk' });
    assert.equal(res.status, 200);
    assert.ok(!res.text.includes('<script>alert(1)'));
    assert.ok(res.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    const up = await upload(
      client,
      {},
      { name: 'x.csv', text: 'url,title\nhttps://a.test/,<script>alert(2)</script>\n' },
    );
    assert.equal(up.status, 200, up.text);
    assert.equal((await apiLinks(h(), key))[0].title, '<script>alert(2)</script>');
    const dashboard = await client.get('/dashboard');
    assert.ok(!dashboard.text.includes('<script>alert(2)'));
    assert.ok(dashboard.text.includes('&lt;script&gt;alert(2)&lt;/script&gt;'));
  });
});
