import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import qs from 'qs';
import { escapeHtml } from '../../src/adapters/shared/html/html.ts';
import type { Harness, Reply } from './harness.ts';
import { WebClient, signedUp, type WebReply } from './web-client.ts';
import { TEST_ACTOR } from './audit-actor.ts';

type Form = Record<string, string>;
// API records are read loosely, as the API tests do.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One resource of the pixels/spaces/domains screens, as the shared tests drive it. */
export interface ResourceCase {
  plural: 'pixels' | 'spaces' | 'domains' | 'utm-templates';
  /** The screens' path when it is not /{plural} (the API's): /links/utm-templates. */
  page?: string;
  /** A name nobody else uses. */
  uniqueName(): string;
  /** A form that creates a record named `name`. */
  form(name: string): Form;
  /** Forms that break a rule, each with the field named and its message. */
  invalid: readonly {
    form: Form;
    field: string;
    message: string;
    /** false: a choice the control does not offer, so it cannot show it again. */ kept?: false;
  }[];
  /** A change that works, and fields of the API record it gives. */
  edit: { form(name: string): Form; expect(name: string): Record<string, unknown> };
  /** A change that breaks a rule on edit. */
  badEdit: { form(name: string): Form; field: string; message: string };
  /** A form storing `<script>` in a field the list shows. */
  scriptForm: Form;
}

export interface SignedIn {
  client: WebClient;
  /** An API key of the same account, to see what the pages did. */
  key: string;
}

/** A fresh account signed in through /signup, with an API key of its own. */
export async function webAccount(h: Harness): Promise<SignedIn> {
  const { client, email } = await signedUp(h.baseUrl);
  const { apiKey } = await h.server.container.accounts.createKey(email, 'web test', TEST_ACTOR);
  return { client, key: apiKey };
}

/**
 * The usual set-up of a web test file: an account signed in with a key of its own (`me`, `key`),
 * and another account's key (`otherKey`) to show the pages never reach its records.
 */
export async function signedInWithKey(h: Harness): Promise<{ me: WebClient; key: string; otherKey: string }> {
  const mine = await webAccount(h);
  const theirs = await webAccount(h);
  return { me: mine.client, key: mine.key, otherKey: theirs.key };
}

/**
 * The API as the key `keyOf()` answers (read when called: the key is made in a `before`) unless
 * another is given; a body goes as JSON or as a form.
 */
export function apiAs(h: () => Harness, keyOf: () => string, body: 'json' | 'form' = 'json') {
  return (method: string, path: string, data?: unknown, key = keyOf()): Promise<Reply> =>
    h().request(method, path, {
      key,
      ...(data === undefined ? {} : body === 'json' ? { json: data } : { form: data as Record<string, unknown> }),
    });
}

/** The account's links through the API (the first hundred: a test's few), to see what the pages wrote. */
export async function apiLinks(h: Harness, key: string): Promise<Json[]> {
  const res = await h.request('GET', '/api/v1/links?per_page=100', { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** The record named `name` through the API, or undefined. */
export async function apiFind(h: Harness, key: string, plural: string, name: string): Promise<Json> {
  const res = await h.request('GET', `/api/v1/${plural}?${qs.stringify({ search: name, per_page: 100 })}`, { key });
  assert.equal(res.status, 200, res.text);
  return (res.body.data as Json[]).find((r) => r.name === name);
}

export async function apiCreate(h: Harness, key: string, plural: string, form: Form): Promise<Json> {
  const res = await h.request('POST', `/api/v1/${plural}`, { key, form });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** The error shown next to a field (the components' markup). */
export function fieldError(page: string, field: string): string | undefined {
  return new RegExp(`<p class="field-error" id="f-${field}-error">([^<]*)</p>`).exec(page)?.[1];
}

export function assertSeeOther(reply: WebReply, location: string | RegExp): void {
  assert.equal(reply.status, 303, reply.text.slice(0, 500));
  if (typeof location === 'string') assert.equal(reply.location, location);
  else assert.match(reply.location ?? '', location);
}

/** A POST with no `_csrf` field at all. */
export function postWithoutCsrf(client: WebClient, path: string, form: Form): Promise<WebReply> {
  return client.send('POST', path, qs.stringify(form), { 'content-type': 'application/x-www-form-urlencoded' });
}

/** The tests every one of these screens passes: access, forms, CSRF, tenancy, escaping, the list. */
export function resourcePageTests(h: () => Harness, c: ResourceCase): void {
  const base = c.page ?? `/${c.plural}`;
  let me: SignedIn;
  before(async () => {
    me = await webAccount(h());
  });
  const count = async () =>
    (await h().request('GET', `/api/v1/${c.plural}`, { key: me.key })).body.meta.total as number;

  test('anonymous visitors are sent to sign in, and come back to the page asked for', async () => {
    const anonymous = new WebClient(h().baseUrl);
    for (const path of [`${base}?search=x&page=2`, `${base}/new`, `${base}/1/edit`, `${base}/1/delete`]) {
      assertSeeOther(await anonymous.get(path), `/login?next=${encodeURIComponent(path)}`);
    }
    assertSeeOther(await anonymous.post(`${base}/new`, c.form(c.uniqueName()), { from: '/login' }), /^\/login\?next=/);
  });

  test('new: the form, then 303 and the record through the API, with a message', async () => {
    const page = await me.client.get(`${base}/new`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const name = c.uniqueName();
    const reply = await me.client.post(`${base}/new`, c.form(name), { from: `${base}/new` });
    assert.equal(reply.status, 303, reply.text.slice(0, 800));
    const record = await apiFind(h(), me.key, c.plural, name);
    assert.ok(record, 'created');
    const next = await me.client.get(reply.location!);
    assert.match(next.text, /<p class="flash" role="status">[^<]+<\/p>/);
  });

  test('new with bad input: 422, the message next to the field and in the summary, values kept, nothing written', async () => {
    for (const bad of c.invalid) {
      const before = await count();
      const reply = await me.client.post(`${base}/new`, bad.form, { from: `${base}/new` });
      assert.equal(reply.status, 422, `${JSON.stringify(bad.form)}: ${reply.text.slice(0, 300)}`);
      assert.equal(fieldError(reply.text, bad.field), bad.message, JSON.stringify(bad.form));
      assert.match(reply.text, new RegExp(`<a href="#f-${bad.field}">${escapeRegExp(bad.message)}</a>`));
      for (const [field, value] of Object.entries(bad.form)) {
        if (value.length > 1 && !(field === bad.field && bad.kept === false))
          assert.ok(reply.text.includes(`value="${escapeHtml(value)}"`), `kept ${value}`);
      }
      assert.equal(await count(), before, 'nothing written');
    }
  });

  test('edit: the form holds the record; a change is saved (303), a bad one is a 422 that writes nothing', async () => {
    const name = c.uniqueName();
    const record = await apiCreate(h(), me.key, c.plural, c.form(name));
    const path = `${base}/${record.id}/edit`;
    const page = await me.client.get(path);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(`value="${name}"`), 'name filled in');

    const bad = await me.client.post(path, c.badEdit.form(name), { from: path });
    assert.equal(bad.status, 422);
    assert.equal(fieldError(bad.text, c.badEdit.field), c.badEdit.message);
    const unchanged = (await h().request('GET', `/api/v1/${c.plural}/${record.id}`, { key: me.key })).body.data;
    assert.deepEqual(unchanged, record, 'nothing written');

    const renamed = c.uniqueName();
    assertSeeOther(await me.client.post(path, c.edit.form(renamed), { from: path }), base);
    const saved = (await h().request('GET', `/api/v1/${c.plural}/${record.id}`, { key: me.key })).body.data;
    for (const [field, value] of Object.entries(c.edit.expect(renamed))) assert.deepEqual(saved[field], value, field);
  });

  test('delete: GET asks and changes nothing; POST deletes, 303 to the list with a message', async () => {
    const name = c.uniqueName();
    const record = await apiCreate(h(), me.key, c.plural, c.form(name));
    const confirm = await me.client.get(`${base}/${record.id}/delete`);
    assert.equal(confirm.status, 200);
    assert.ok(confirm.text.includes(name));
    assert.ok(await apiFind(h(), me.key, c.plural, name), 'still there after GET');
    const reply = await me.client.post(`${base}/${record.id}/delete`, {}, { from: `${base}/${record.id}/delete` });
    assertSeeOther(reply, base);
    assert.equal((await h().request('GET', `/api/v1/${c.plural}/${record.id}`, { key: me.key })).status, 404);
    const list = await me.client.get(base);
    assert.match(list.text, new RegExp(`<p class="flash" role="status">[^<]*${escapeRegExp(name)}[^<]*</p>`));
  });

  test('a missing or wrong CSRF token is a 403 and writes nothing', async () => {
    const record = await apiCreate(h(), me.key, c.plural, c.form(c.uniqueName()));
    const attempts: [string, Form][] = [
      [`${base}/new`, c.form(c.uniqueName())],
      [`${base}/${record.id}/edit`, c.edit.form(c.uniqueName())],
      [`${base}/${record.id}/delete`, {}],
    ];
    const before = await count();
    for (const [path, form] of attempts) {
      assert.equal((await postWithoutCsrf(me.client, path, form)).status, 403, `${path} without a token`);
      assert.equal(
        (await me.client.post(path, { ...form, _csrf: 'x'.repeat(43) })).status,
        403,
        `${path} with a wrong token`,
      );
    }
    assert.equal(await count(), before);
    assert.deepEqual((await h().request('GET', `/api/v1/${c.plural}/${record.id}`, { key: me.key })).body.data, record);
  });

  test("another account's records are 404 on every page, as in the API, and stay as they were", async () => {
    const other = await h().account();
    const theirs = await apiCreate(h(), other.key, c.plural, c.form(c.uniqueName()));
    for (const path of [
      `${base}/${theirs.id}/edit`,
      `${base}/${theirs.id}/delete`,
      `${base}/999999999/edit`,
      `${base}/abc/edit`,
    ]) {
      assert.equal((await me.client.get(path)).status, 404, path);
    }
    const from = `${base}/new`;
    assert.equal(
      (await me.client.post(`${base}/${theirs.id}/edit`, c.edit.form(c.uniqueName()), { from })).status,
      404,
    );
    assert.equal(
      (await me.client.post(`${base}/${theirs.id}/edit`, c.badEdit.form(c.uniqueName()), { from })).status,
      404,
    );
    assert.equal((await me.client.post(`${base}/${theirs.id}/delete`, {}, { from })).status, 404);
    assert.deepEqual(
      (await h().request('GET', `/api/v1/${c.plural}/${theirs.id}`, { key: other.key })).body.data,
      theirs,
    );
  });

  test('a stored <script> comes out escaped on the list, edit and delete pages', async () => {
    const record = await apiCreate(h(), me.key, c.plural, c.scriptForm);
    for (const path of [base, `${base}/${record.id}/edit`, `${base}/${record.id}/delete`]) {
      const page = await me.client.get(path);
      assert.equal(page.status, 200, path);
      assert.ok(!page.text.includes('<script>alert'), `${path} escapes it`);
    }
    assert.ok((await me.client.get(base)).text.includes('&lt;script&gt;alert'));
  });

  test('the list: search and page in the query string, kept across pages; a bad page number is a 422 naming it', async () => {
    const fresh = await webAccount(h());
    const tag = `p${randomBytes(3).toString('hex')}`;
    for (let i = 0; i < 12; i++)
      await apiCreate(h(), fresh.key, c.plural, c.form(c.uniqueName().replace(/^/, `${tag}${i}-`)));
    await apiCreate(h(), fresh.key, c.plural, c.form(c.uniqueName()));
    const first = await fresh.client.get(`${base}?search=${tag}`);
    assert.equal(first.status, 200);
    assert.equal(rows(first.text), 10);
    assert.ok(first.text.includes(`value="${tag}"`), 'the search stays in its field');
    const next = /<a href="([^"]+)" rel="next">/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
    assert.equal(next, `${base}?search=${tag}&page=2`);
    assert.equal(rows((await fresh.client.get(next)).text), 2);
    assert.equal(rows((await fresh.client.get(base)).text), 10);
    assert.equal(rows((await fresh.client.get(`${base}?search=${tag}&per_page=25`)).text), 12);
    // Under the one reading of numbers (issue 30): the list's form again, each refused field named, no rows read.
    const odd = await fresh.client.get(`${base}?search=${tag}&page=abc&per_page=7`);
    assert.equal(odd.status, 422);
    assert.equal(rows(odd.text), 0);
    assert.match(odd.text, /The page field must be an integer\./);
    assert.match(odd.text, /The per page field must be at least 10\./);
    assert.ok(odd.text.includes(`value="${tag}"`), 'the search stays in its field');
    const none = await fresh.client.get(`${base}?search=nothing-${tag}`);
    assert.equal(rows(none.text), 0);
  });
}

/** Table rows of records (their name cells). */
const rows = (page: string): number => page.match(/<th scope="row">/g)?.length ?? 0;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
