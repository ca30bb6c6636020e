import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient } from '../../support/web-client.ts';
import { apiAs, signedInWithKey } from '../../support/web-resources.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

onEachEngine('web: link form, delete and QR pages', (h) => {
  let me: WebClient;
  let key: string;
  let otherKey: string;

  const api = apiAs(h, () => key, 'form');
  const linkOf = async (id: number | string): Promise<Json> => (await api('GET', `/api/v1/links/${id}`)).body.data;
  const linkCount = async (): Promise<number> => (await api('GET', '/api/v1/links')).body.meta.total;
  const made = async (form: Record<string, unknown>, k = key): Promise<Json> => {
    const reply = await api('POST', '/api/v1/links', form, k);
    assert.equal(reply.status, 201, reply.text);
    return reply.body.data;
  };
  const idFrom = (location: string | null) => Number(/^\/links\/(\d+)\/edit$/.exec(location ?? '')?.[1]);

  before(async () => {
    ({ me, key, otherKey } = await signedInWithKey(h()));
  });

  test('anonymous visitors are sent to sign in, coming back where they were', async () => {
    const anonymous = new WebClient(h().baseUrl);
    for (const path of ['/links/new', '/links/1/edit', '/links/1/delete', '/links/1/qr', '/links/1/qr.png']) {
      const reply = await anonymous.get(path);
      assert.equal(reply.status, 303, path);
      assert.equal(reply.location, `/login?next=${encodeURIComponent(path)}`);
    }
  });

  test('the new-link form has every API field under its API name, in labelled sections', async () => {
    const page = await me.get('/links/new');
    assert.equal(page.status, 200);
    for (const name of [
      'url',
      'title',
      'domain',
      'alias',
      'space',
      'password',
      'disabled',
      'privacy',
      'privacy_password',
      'expiration_url',
    ]) {
      assert.match(page.text, new RegExp(`name="${name}"`), name);
    }
    for (const name of ['expiration_date', 'expiration_time', 'expiration_clicks', 'target_type'])
      assert.match(page.text, new RegExp(`name="${name}"`), name);
    for (const list of ['country', 'platform', 'language', 'rotation'])
      assert.match(page.text, new RegExp(`name="add_row" value="${list}"`));
    assert.match(page.text, /<legend>Destination<\/legend>/);
    // The sections past the short URL are folded, each saying what is set.
    for (const [id, title] of [
      ['tags', 'Tags &amp; UTM'],
      ['targeting', 'Targeting &amp; rules'],
      ['protection', 'Protection'],
      ['expiry', 'Expiry'],
      ['tracking', 'Tracking'],
      ['app-links', 'App links'],
    ])
      assert.match(
        page.text,
        new RegExp(
          `<details class="form-section" id="section-${id}">\\s*<summary><span class="form-section-title">${title}</span> <span class="form-section-summary">[^<]+</span></summary>`,
        ),
        id,
      );
    assert.match(page.text, /<option value="" selected>short\.test \(default\)<\/option>/);
    assert.equal((page.text.match(/type="radio" [^>]*name="privacy"/g) ?? []).length, 3);
    assert.doesNotMatch(page.text, /style=|<script>/);
  });

  test('a link created with country targeting, a space and pixels is what the API returns', async () => {
    const space = (await api('POST', '/api/v1/spaces', { name: 'Campaign' })).body.data;
    const pixel = (await api('POST', '/api/v1/pixels', { name: 'FB', type: 'facebook', value: '12345' })).body.data;
    const form = await me.get('/links/new');
    assert.match(form.text, new RegExp(`name="pixels\\[\\]" value="${pixel.id}"`));
    const reply = await me.post('/links/new', {
      url: 'https://example.com/landing',
      alias: 'web-form-1',
      domain: '',
      space: String(space.id),
      pixels: [String(pixel.id)],
      privacy: '2',
      privacy_password: 'stats-secret',
      password: 'door-secret',
      expiration_date: '2099-12-31',
      expiration_time: '23:30',
      expiration_clicks: '500',
      expiration_url: 'https://example.com/over',
      target_type: '1',
      country: [
        { key: 'US', value: 'https://example.com/us' },
        { key: 'FR', value: 'https://example.com/fr' },
      ],
      rotation: [{ value: 'https://example.com/r1' }],
    });
    assert.equal(reply.status, 303, reply.text.slice(0, 2000));
    const link = await linkOf(idFrom(reply.location));
    assert.equal(link.alias, 'web-form-1');
    assert.equal(link.target_type, 1);
    assert.deepEqual(link.country_target, [
      { key: 'US', value: 'https://example.com/us' },
      { key: 'FR', value: 'https://example.com/fr' },
    ]);
    assert.deepEqual(link.rotation_target, [{ value: 'https://example.com/r1' }]);
    assert.equal(link.platform_target, null);
    assert.equal(link.space.id, space.id);
    assert.deepEqual(
      link.pixels.map((p: Json) => p.id),
      [pixel.id],
    );
    assert.equal(link.password, true);
    assert.equal(link.privacy, 2);
    assert.equal(link.privacy_password, true);
    assert.equal(link.expiration_clicks, 500);
    assert.equal(link.expiration_url, 'https://example.com/over');
    assert.ok(link.ends_at?.startsWith('2099-12-31T23:30'));

    const edit = await me.get(reply.location!);
    assert.equal(edit.status, 200);
    assert.match(edit.text, /Link created\./);
    assert.match(
      edit.text,
      /name="country\[1\]\[key\]"[^>]*>(?:(?!<\/select>).)*<option value="FR" selected>France<\/option>/s,
    );
    assert.match(edit.text, /value="https:\/\/example\.com\/fr"/);
    assert.match(edit.text, /http:\/\/short\.test\/web-form-1/);
    assert.match(edit.text, /name="remove_password"/);
    assert.doesNotMatch(edit.text, /door-secret|stats-secret/);
  });

  test('refused input: 422, each message next to its field and in the summary, values kept, nothing written', async () => {
    const before = await linkCount();
    const reply = await me.post('/links/new', {
      url: 'javascript:alert(1)',
      alias: 'bad alias!',
      title: 'Kept title',
      password: 'not-shown',
      expiration_clicks: 'many',
      expiration_date: '2099-01-01',
      target_type: '1',
      country: [{ key: 'US', value: 'not a url' }],
    });
    assert.equal(reply.status, 422);
    assert.match(reply.text, /class="error-summary"/);
    for (const id of ['f-url', 'f-alias', 'f-expiration_clicks', 'f-expiration_time', 'f-country-0-value']) {
      assert.match(reply.text, new RegExp(`id="${id}-error"`), id);
      assert.match(reply.text, new RegExp(`href="#${id}"`), id);
    }
    assert.match(reply.text, /value="javascript:alert\(1\)"/);
    assert.match(reply.text, /value="bad alias!"/);
    assert.match(reply.text, /value="Kept title"/);
    assert.match(reply.text, /value="many"/);
    assert.match(reply.text, /value="not a url"/);
    assert.match(reply.text, /<option value="US" selected>/);
    assert.doesNotMatch(reply.text, /not-shown/);
    assert.equal(await linkCount(), before);
  });

  test('targeting rows are added and removed with JavaScript off: 200, every value kept, nothing saved', async () => {
    const before = await linkCount();
    const typed = {
      url: 'https://example.com/rows',
      alias: 'rows-kept',
      title: 'Rows',
      password: 'typed-secret',
      expiration_clicks: '7',
      target_type: '1',
      country: [
        { key: 'DE', value: 'https://example.com/de' },
        { key: 'JP', value: 'https://example.com/jp' },
      ],
      language: [{ key: 'fr', value: 'https://example.com/lang-fr' }],
    };
    const added = await me.post('/links/new', { ...typed, add_row: 'country' }, { from: '/links/new' });
    assert.equal(added.status, 200);
    assert.match(added.text, /name="country\[2\]\[key\]"/);
    assert.doesNotMatch(added.text, /name="country\[3\]\[key\]"/);
    for (const v of [
      'https://example.com/rows',
      'rows-kept',
      'Rows',
      '7',
      'https://example.com/de',
      'https://example.com/jp',
      'https://example.com/lang-fr',
    ]) {
      assert.ok(added.text.includes(`value="${v}"`), v);
    }
    assert.match(added.text, /<option value="JP" selected>/);
    // The page comes back scrolled to the new row; Enter in a field still saves, never removes a row.
    assert.match(added.text, /name="add_row" value="country" formaction="\/links\/new#f-country-3-key"/);
    assert.match(added.text, /name="remove_row" value="country:2" formaction="\/links\/new#f-country"/);
    const firstSubmit =
      /<button type="submit"[^>]*>/.exec(
        added.text.slice(added.text.indexOf('<form method="post" action="/links/new"')),
      )?.[0] ?? '';
    assert.doesNotMatch(firstSubmit, /name=/);
    assert.match(added.text, /<option value="fr" selected>/);
    // The typed password comes back in this POST answer only (link-form-round-trip.test.ts).
    assert.match(added.text, /name="password"[^>]*value="typed-secret"/);
    assert.doesNotMatch(added.text, /class="error-summary"/);

    const removed = await me.post('/links/new', { ...typed, remove_row: 'country:0' }, { from: '/links/new' });
    assert.equal(removed.status, 200);
    assert.doesNotMatch(removed.text, /name="country\[1\]\[key\]"/);
    assert.doesNotMatch(removed.text, /https:\/\/example\.com\/de/);
    assert.match(
      removed.text,
      /name="country\[0\]\[value\]"[^>]*value="https:\/\/example\.com\/jp"|value="https:\/\/example\.com\/jp"/,
    );
    assert.match(removed.text, /<option value="JP" selected>/);
    assert.ok(removed.text.includes('value="rows-kept"'));

    const rotation = await me.post(
      '/links/new',
      { url: 'https://example.com/r', add_row: 'rotation' },
      { from: '/links/new' },
    );
    assert.match(rotation.text, /name="rotation\[0\]\[value\]"/);
    assert.equal(await linkCount(), before);
  });

  test('on edit a blank password keeps the one set; the box removes it; a new one replaces it', async () => {
    const link = await made({ url: 'https://example.com/pw', password: 'first-secret' });
    const path = `/links/${link.id}/edit`;
    const page = await me.get(path);
    assert.match(page.text, /A password is set/);
    const base = { url: 'https://example.com/pw-2', alias: link.alias, privacy: '0', target_type: '0' };

    const kept = await me.post(path, { ...base, password: '' });
    assert.equal(kept.status, 303, kept.text.slice(0, 1500));
    assert.equal(kept.location, '/links');
    let now = await linkOf(link.id);
    assert.equal(now.password, true);
    assert.equal(now.url, 'https://example.com/pw-2');

    const removed = await me.post(path, { ...base, remove_password: '1' });
    assert.equal(removed.status, 303);
    now = await linkOf(link.id);
    assert.equal(now.password, false);

    await me.post(path, { ...base, password: 'second-secret' });
    assert.equal((await linkOf(link.id)).password, true);
  });

  test('edit: the form starts from the stored link; refused input is a 422 that writes nothing', async () => {
    const pixel = (await api('POST', '/api/v1/pixels', { name: 'Edit px', type: 'bing', value: 'abc' })).body.data;
    const link = await made({
      url: 'https://example.com/e',
      alias: 'edit-me',
      pixels: [pixel.id],
      target_type: 2,
      platform: [{ key: 'iOS', value: 'https://example.com/ios' }],
    });
    const path = `/links/${link.id}/edit`;
    const page = await me.get(path);
    assert.ok(page.text.includes('value="edit-me"'));
    assert.match(page.text, /<option value="iOS" selected>iOS<\/option>/);
    assert.match(page.text, /<option value="2" selected>Platform<\/option>/);
    assert.match(page.text, new RegExp(`name="pixels\\[\\]" value="${pixel.id}" checked`));

    const bad = await me.post(path, { url: '', alias: 'edit-me', expiration_time: '25:99', privacy: '0' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-url-error"/);
    assert.match(bad.text, /id="f-expiration_date-error"/);
    assert.equal((await linkOf(link.id)).url, 'https://example.com/e');

    // A row removed on edit is removed on save; the domain field is not the form's to change.
    const saved = await me.post(path, {
      url: 'https://example.com/e2',
      alias: 'edit-me-2',
      target_type: '0',
      privacy: '0',
      domain: '999',
    });
    assert.equal(saved.status, 303, saved.text.slice(0, 1500));
    const now = await linkOf(link.id);
    assert.equal(now.alias, 'edit-me-2');
    assert.equal(now.platform_target, null);
    assert.equal(now.target_type, 0);
    assert.deepEqual(now.pixels, [], 'no box ticked: no pixels');
  });

  test('a missing or wrong CSRF token is refused with 403 and nothing is written', async () => {
    const before = await linkCount();
    for (const token of ['', 'forged']) {
      const reply = await me.post('/links/new', { _csrf: token, url: 'https://example.com/csrf' });
      assert.equal(reply.status, 403);
    }
    assert.equal(await linkCount(), before);
    const link = await made({ url: 'https://example.com/csrf-edit' });
    assert.equal(
      (await me.post(`/links/${link.id}/edit`, { _csrf: 'forged', url: 'https://example.com/changed' })).status,
      403,
    );
    assert.equal((await me.post(`/links/${link.id}/delete`, { _csrf: 'forged' })).status, 403);
    const now = await linkOf(link.id);
    assert.equal(now.url, 'https://example.com/csrf-edit');
  });

  test("another account's links answer 404 on every route, and so do ids that name nothing", async () => {
    const theirs = await made({ url: 'https://example.com/theirs' }, otherKey);
    for (const path of [
      `/links/${theirs.id}/edit`,
      `/links/${theirs.id}/delete`,
      `/links/${theirs.id}/qr`,
      `/links/${theirs.id}/qr.png`,
      `/links/${theirs.id}/qr.svg`,
    ]) {
      assert.equal((await me.get(path)).status, 404, path);
    }
    assert.equal(
      (await me.post(`/links/${theirs.id}/edit`, { url: 'https://example.com/mine' }, { from: '/links/new' })).status,
      404,
    );
    assert.equal(
      (
        await me.post(
          `/links/${theirs.id}/edit`,
          { url: 'https://example.com/mine', add_row: 'country' },
          { from: '/links/new' },
        )
      ).status,
      404,
    );
    assert.equal((await me.post(`/links/${theirs.id}/delete`, {}, { from: '/links/new' })).status, 404);
    const still = await api('GET', `/api/v1/links/${theirs.id}`, undefined, otherKey);
    assert.equal(still.body.data.url, 'https://example.com/theirs');
    for (const path of ['/links/abc/edit', '/links/0/qr', '/links/99999999999/delete'])
      assert.equal((await me.get(path)).status, 404, path);
    assert.equal(
      (await me.post('/links/abc/edit', { url: 'https://example.com/x' }, { from: '/links/new' })).status,
      404,
    );
  });

  test('stored markup comes out escaped', async () => {
    const link = await made({ url: 'https://example.com/x?a=<b>', title: '<script>alert(1)</script>' });
    for (const path of [`/links/${link.id}/edit`, `/links/${link.id}/delete`]) {
      const page = await me.get(path);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /<script>alert/);
      assert.match(page.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    }
  });

  test('delete: GET asks and changes nothing; POST deletes and says so', async () => {
    const link = await made({ url: 'https://example.com/bye', alias: 'bye-bye', title: 'Farewell' });
    const ask = await me.get(`/links/${link.id}/delete`);
    assert.equal(ask.status, 200);
    assert.match(ask.text, /Farewell/);
    assert.match(ask.text, /http:\/\/short\.test\/bye-bye/);
    assert.match(ask.text, /<button type="submit" class="danger">Delete link<\/button>/);
    assert.equal((await api('GET', `/api/v1/links/${link.id}`)).status, 200);
    const done = await me.post(`/links/${link.id}/delete`, {}, { from: `/links/${link.id}/delete` });
    assert.equal(done.status, 303);
    assert.equal(done.location, '/links');
    assert.equal((await api('GET', `/api/v1/links/${link.id}`)).status, 404);
    assert.ok([...me.cookies.keys()].some((k) => k === 'lpx_flash'));
  });

  test('QR page: inline SVG preview, settings form, contrast warning, downloads as attachments', async () => {
    const link = await made({ url: 'https://example.com/qr', alias: 'qr-code' });
    const page = await me.get(`/links/${link.id}/qr`);
    assert.equal(page.status, 200);
    const src = /<img src="data:image\/svg\+xml;base64,([^"]+)" alt="QR code for http:\/\/short\.test\/qr-code"/.exec(
      page.text,
    );
    assert.ok(src, 'preview image');
    assert.match(Buffer.from(src[1]!, 'base64').toString(), /^<svg/);
    assert.match(page.text, /<form method="get" action="\/links\/\d+\/qr"/);
    assert.match(page.text, /type="color"[^>]*value="#000000"|name="foreground" type="color" value="#000000"/);
    assert.doesNotMatch(page.text, /class="qr-warning"/);
    assert.match(
      page.text,
      /href="\/links\/\d+\/qr\.png\?size=300&amp;margin=2&amp;foreground=%23000000&amp;background=%23ffffff&amp;ecc=M&amp;style=square"/,
    );

    const pale = await me.get(`/links/${link.id}/qr?size=200&margin=4&foreground=%23cccccc&background=%23ffffff`);
    assert.equal(pale.status, 200);
    assert.match(pale.text, /class="qr-warning">Low contrast \(1\.61:1\)/);
    assert.match(pale.text, /value="#cccccc"/);

    const png = await me.get(`/links/${link.id}/qr.png?size=128&foreground=%23112233`);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.match(png.headers.get('content-disposition') ?? '', /^attachment; filename="link-\d+-qr\.png"$/);
    const svg = await me.get(`/links/${link.id}/qr.svg?background=%23ffeedd`);
    assert.equal(svg.status, 200);
    assert.match(svg.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.match(svg.headers.get('content-disposition') ?? '', /^attachment; filename="link-\d+-qr\.svg"$/);
    assert.match(svg.text, /#ffeedd/i);

    const bad = await me.get(`/links/${link.id}/qr?size=5&foreground=red`);
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-size-error"/);
    assert.match(bad.text, /id="f-foreground-error"/);
    assert.equal((await me.get(`/links/${link.id}/qr.png?size=99999`)).status, 422);
  });
});
