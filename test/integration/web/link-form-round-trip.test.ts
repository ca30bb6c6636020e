import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, webAccount } from '../../support/web-resources.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The form as a browser encodes it: bracket names as written (`pixels[]`), in document order. */
function browserBody(fields: [string, string][]): string {
  return new URLSearchParams(fields).toString();
}

/** The opening tag of the control named `name` (the first one). */
function control(page: string, name: string, value?: string): string {
  const escaped = name.replace(/[[\]]/g, '\\$&');
  const tags = page.match(new RegExp(`<(?:input|select|textarea)[^>]*name="${escaped}"[^>]*>`, 'g')) ?? [];
  return (value === undefined ? tags[0] : tags.find((t) => t.includes(`value="${value}"`))) ?? '';
}

onEachEngine('web: the link form round trip keeps every field', (h) => {
  let me: WebClient;
  let key: string;
  let pixels: Json[];
  let space: Json;

  const api = apiAs(h, () => key, 'form');
  const linkCount = async (): Promise<number> => (await api('GET', '/api/v1/links')).body.meta.total;

  before(async () => {
    ({ client: me, key } = await webAccount(h()));
    pixels = [
      (await api('POST', '/api/v1/pixels', { name: 'Round FB', type: 'facebook', value: '111' })).body.data,
      (await api('POST', '/api/v1/pixels', { name: 'Round GA', type: 'bing', value: 'round1' })).body.data,
    ];
    space = (await api('POST', '/api/v1/spaces', { name: 'Round space' })).body.data;
  });

  const typed = (csrf: string): [string, string][] => [
    ['_csrf', csrf],
    ['url', 'https://example.com/kept'],
    ['title', 'Kept title'],
    ['alias', 'kept-alias'],
    ['space', String(space.id)],
    ['pixels[]', String(pixels[1].id)],
    ['password', 'door "secret" <typed>'],
    ['disabled', '1'],
    ['privacy', '2'],
    ['privacy_password', 'stats-typed'],
    ['expiration_date', '2099-06-30'],
    ['expiration_time', '08:15'],
    ['expiration_clicks', '42'],
    ['expiration_url', 'https://example.com/after'],
    ['target_type', '1'],
    ['country[0][key]', 'DE'],
    ['country[0][value]', 'https://example.com/de'],
  ];

  const roundTrip = async (path: string, extra: [string, string][]) => {
    const csrf = await me.csrf(path);
    const reply = await me.send('POST', path, browserBody([...typed(csrf), ...extra]), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(reply.status, 200, reply.text.slice(0, 800));
    return reply;
  };

  const assertKept = (page: string) => {
    assert.match(control(page, 'url'), /value="https:\/\/example\.com\/kept"/, 'url');
    assert.match(control(page, 'title'), /value="Kept title"/, 'title');
    assert.match(control(page, 'alias'), /value="kept-alias"/, 'alias');
    assert.match(page, new RegExp(`<option value="${space.id}" selected>Round space</option>`), 'space');
    assert.match(control(page, 'pixels[]', String(pixels[1].id)), / checked/, 'the ticked pixel');
    assert.doesNotMatch(control(page, 'pixels[]', String(pixels[0].id)), / checked/, 'the pixel left unticked');
    assert.match(control(page, 'password'), /value="door &quot;secret&quot; &lt;typed&gt;"/, 'password, escaped');
    assert.match(control(page, 'privacy_password'), /value="stats-typed"/, 'privacy_password');
    assert.match(control(page, 'disabled'), / checked/, 'disabled');
    assert.match(control(page, 'privacy', '2'), / checked/, 'privacy');
    assert.match(control(page, 'expiration_date'), /value="2099-06-30"/, 'expiration_date');
    assert.match(control(page, 'expiration_time'), /value="08:15"/, 'expiration_time');
    assert.match(control(page, 'expiration_clicks'), /value="42"/, 'expiration_clicks');
    assert.match(control(page, 'expiration_url'), /value="https:\/\/example\.com\/after"/, 'expiration_url');
    assert.match(page, /name="target_type"[^>]*>(?:(?!<\/select>).)*<option value="1" selected>/s, 'target_type');
    assert.match(
      page,
      /name="country\[0\]\[key\]"[^>]*>(?:(?!<\/select>).)*<option value="DE" selected>/s,
      'country row key',
    );
    assert.match(control(page, 'country[0][value]'), /value="https:\/\/example\.com\/de"/, 'country row value');
  };

  test('new link: "Add a country" without JavaScript keeps every field, pixels and typed passwords included', async () => {
    const before = await linkCount();
    const reply = await roundTrip('/links/new', [['add_row', 'country']]);
    assertKept(reply.text);
    assert.match(reply.text, /name="country\[1\]\[key\]"/);
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    assert.equal(await linkCount(), before);
  });

  test('new link: removing a row keeps every other field', async () => {
    const reply = await roundTrip('/links/new', [
      ['country[1][key]', 'FR'],
      ['country[1][value]', 'https://example.com/fr'],
      ['remove_row', 'country:1'],
    ]);
    assertKept(reply.text);
    assert.doesNotMatch(reply.text, /example\.com\/fr/);
  });

  test('edit: the round trip keeps every field too, the domain chosen once', async () => {
    const made = await api('POST', '/api/v1/links', { url: 'https://example.com/stored', alias: 'round-edit' });
    assert.equal(made.status, 201, made.text);
    const path = `/links/${made.body.data.id}/edit`;
    const reply = await roundTrip(path, [['add_row', 'language']]);
    assertKept(reply.text);
    assert.match(reply.text, /name="language\[0\]\[key\]"/);
    const stored = (await api('GET', `/api/v1/links/${made.body.data.id}`)).body.data;
    assert.equal(stored.url, 'https://example.com/stored');
    assert.equal(stored.password, false);
  });

  test('a refused save keeps the fields but not the typed passwords; a GET never shows them', async () => {
    const csrf = await me.csrf('/links/new');
    const refused = await me.send(
      'POST',
      '/links/new',
      browserBody([...typed(csrf).filter(([k]) => k !== 'url'), ['url', 'javascript:alert(1)']]),
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    assert.equal(refused.status, 422);
    assert.match(
      refused.text,
      /The url field must be a URL whose scheme is http or https\./,
      'the allowed schemes named',
    );
    // Every other field is kept on a refused save too, the ticked pixel included.
    assert.match(control(refused.text, 'pixels[]', String(pixels[1].id)), / checked/, 'the ticked pixel after a 422');
    assert.match(control(refused.text, 'expiration_date'), /value="2099-06-30"/);
    assert.doesNotMatch(refused.text, /door|stats-typed/);
    assert.doesNotMatch((await me.get('/links/new')).text, /door|stats-typed/);
  });
});
