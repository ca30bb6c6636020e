import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import qs from 'qs';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { csrfOf, signedUp, WebClient } from '../../support/web-client.ts';
import {
  assertBounded,
  BAD_NUMBERS,
  fieldName,
  nested,
  numericFields,
  type JsonSchema,
} from '../../support/numeric-fuzz.ts';
import { registerWebApp } from '../../../src/adapters/web/app/plugin.ts';

interface WebRoute {
  method: string;
  url: string;
  schema: { querystring?: JsonSchema; body?: JsonSchema; params?: JsonSchema };
}

/** The web app's route table: its routes registered on a throwaway app, as the server registers them. */
async function webRoutes(h: Harness): Promise<WebRoute[]> {
  const probe = Fastify();
  const routes: WebRoute[] = [];
  probe.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const method of methods)
      if (method !== 'HEAD') routes.push({ method, url: r.url, schema: (r.schema ?? {}) as WebRoute['schema'] });
  });
  await registerWebApp(probe, { ...h.server.container, web: { signup: 'open', csrfSecret: 'probe' } });
  await probe.close();
  return routes;
}

const hasSchema = (route: WebRoute): boolean =>
  Boolean(route.schema.querystring || route.schema.body || route.schema.params);

/**
 * Issue 30: the web app reads numbers and form fields as the API does; bad input is a 4xx naming the field.
 * A session's CSRF token is the same on every page (web/app/csrf.ts): the sweeps read it once, not a page a request.
 */
onEachEngine('web: the one reading of numbers and of form fields', (h) => {
  let client: WebClient;
  const ids: Record<string, number> = {};

  before(async () => {
    // The instance's first account: its operator, so /admin's lists are fuzzed too.
    client = (await signedUp(h().baseUrl)).client;
    for (const [path, form] of [
      ['/links/new', { url: 'https://example.com/web-fuzz' }],
      ['/pixels/new', { name: 'Fuzz', type: 'facebook', value: '1' }],
      ['/spaces/new', { name: 'Fuzz', color: '1' }],
      ['/domains/new', { name: 'web-fuzz.example' }],
    ] as const) {
      const res = await client.post(path, form, { from: path });
      assert.equal(res.status, 303, `${path}: ${res.text.slice(0, 300)}`);
    }
    const account = (await h().server.container.accounts.getAccount(1)).id;
    const db = h().server.container.storage.db;
    for (const table of ['links', 'pixels', 'spaces', 'domains'] as const) {
      const row = await db.selectFrom(table).select('id').where('account_id', '=', account).executeTakeFirstOrThrow();
      ids[table] = row.id;
    }
  });

  /** A route's path with its ids filled in: the record of its kind (a link's for the statistics pages). */
  const pathOf = (url: string, id?: string) =>
    url
      .replace(
        /^\/([a-z]+)(.*?):id/,
        (_, kind: string, rest: string) =>
          `/${kind}${rest}${id ?? String(ids[kind === 'stats' || kind === 'links' ? 'links' : kind] ?? ids.links)}`,
      )
      .replace(':name', 'countries');

  test('every numeric query field of every web route refuses each bad spelling with a 422 naming it', async () => {
    let fuzzed = 0;
    for (const route of (await webRoutes(h())).filter((r) => r.method === 'GET' && r.schema.querystring)) {
      for (const field of numericFields(route.schema.querystring)) {
        assertBounded(field, `GET ${route.url}`);
        const name = fieldName(field.path);
        for (const bad of BAD_NUMBERS) {
          const path = `${pathOf(route.url)}?${new URLSearchParams({ [name]: bad })}`;
          const res = await client.get(path);
          assert.equal(res.status, 422, `GET ${path}: ${res.status}`);
          assert.match(res.text, new RegExp(`The ${name.replace(/_/g, ' ')} field must`), `GET ${path} names ${name}`);
          fuzzed++;
        }
      }
    }
    assert.ok(fuzzed >= BAD_NUMBERS.length * 10, `only ${fuzzed} requests`);
  });

  test('every query field of every web route refuses a list (the field sent twice) with a 422', async () => {
    // Query strings have no brackets (`size[]` is a field of that name): a list is a field repeated.
    for (const route of (await webRoutes(h())).filter((r) => r.method === 'GET' && r.schema.querystring)) {
      for (const name of Object.keys(route.schema.querystring?.properties ?? {})) {
        const path = `${pathOf(route.url)}?${name}=1&${name}=2`;
        const res = await client.get(path);
        assert.equal(res.status, 422, `GET ${path}: ${res.status}`);
      }
    }
  });

  test('every numeric path id of every web route answers 404 for each bad spelling', async () => {
    const csrf = await client.csrf('/dashboard');
    for (const route of await webRoutes(h())) {
      if (!route.url.includes(':id')) continue;
      for (const bad of BAD_NUMBERS) {
        const path = pathOf(route.url, encodeURIComponent(bad));
        const res = route.method === 'GET' ? await client.get(path) : await client.post(path, { _csrf: csrf });
        assert.equal(res.status, 404, `${route.method} ${path}: ${res.status}`);
      }
    }
  });

  test('every numeric form field of every web form refuses each bad spelling with a 422, nothing written', async () => {
    const before = await counts(h());
    const csrf = await client.csrf('/dashboard');
    let fuzzed = 0;
    for (const route of (await webRoutes(h())).filter((r) => r.method === 'POST' && r.schema.body)) {
      for (const field of numericFields(route.schema.body)) {
        for (const bad of BAD_NUMBERS) {
          const path = pathOf(route.url);
          const res = await client.post(path, { ...nested(field.path, bad), _csrf: csrf });
          assert.equal(
            res.status,
            422,
            `POST ${path} ${fieldName(field.path)}=${bad}: ${res.status} ${res.text.slice(0, 200)}`,
          );
          fuzzed++;
        }
      }
    }
    assert.ok(fuzzed > 0);
    assert.deepEqual(await counts(h()), before);
  });

  test('every web route that reads input declares it in a schema (so the tests above reach it)', async () => {
    // Routes that read no field, or only text through their own checks (auth, account, statistics' password).
    const routes = await webRoutes(h());
    const lists = routes.filter(
      (r) => r.method === 'GET' && /^\/(links|pixels|spaces|domains|admin\/accounts|admin\/links)$/.test(r.url),
    );
    assert.equal(lists.length, 6);
    for (const list of lists) assert.ok(hasSchema(list), `GET ${list.url} reads page and per_page through a schema`);
  });

  test('type confusion: lists, objects and numbers in any field of any form never answer 500 and write nothing', async () => {
    const locked = await client.post(
      '/links/new',
      { url: 'https://example.com/locked', privacy: '2', privacy_password: 'stats secret' },
      { from: '/links/new' },
    );
    assert.equal(locked.status, 303, locked.text.slice(0, 300));
    const lockedId = Number(/\/links\/(\d+)/.exec(locked.location ?? '')?.[1] ?? (await latestLink(h())));
    const before = await counts(h());
    // Signed out: the sign-in, sign-up and statistics password forms.
    const anonymous = new WebClient(h().baseUrl);
    const sweeps: [WebClient, string[]][] = [
      [anonymous, ['/login', '/signup', `/stats/${lockedId}`]],
      [
        client,
        [
          '/dashboard',
          '/links/new',
          `/links/${ids.links}/edit`,
          '/links/bulk',
          '/links',
          '/pixels/new',
          `/pixels/${ids.pixels}/edit`,
          '/spaces/new',
          `/spaces/${ids.spaces}/edit`,
          '/domains/new',
          `/domains/${ids.domains}/edit`,
          '/account',
          '/account/api-keys',
          '/admin/accounts',
        ],
      ],
    ];
    let fuzzed = 0;
    for (const [who, pages] of sweeps)
      for (const page of pages) {
        const html = (await who.get(page)).text;
        for (const form of formsOf(html)) {
          // Signing out or ending sessions would end this client's session: their forms are read the same way.
          if (/\/logout$|\/sessions\/|\/delete$|\/theme$|\/suspend$|\/revoke$/.test(form.action)) continue;
          for (const name of form.fields) {
            const base = name.replace(/\[.*$/, '');
            const variants: { form?: string; json?: Record<string, unknown> }[] = [
              { form: `${base}[]=1&${base}[]=2` },
              { form: `${base}[0][x]=1` },
              { form: `${base}[a]=1` },
              { json: { [base]: 5 } },
              { json: { [base]: {} } },
              { json: { [base]: [1] } },
            ];
            for (const confused of variants) {
              const csrf = csrfOf(html);
              const res =
                confused.form !== undefined
                  ? await who.send('POST', form.action, `_csrf=${encodeURIComponent(csrf)}&${confused.form}`, {
                      'content-type': 'application/x-www-form-urlencoded',
                    })
                  : await who.send('POST', form.action, JSON.stringify({ _csrf: csrf, ...confused.json }), {
                      'content-type': 'application/json',
                    });
              const what = `POST ${form.action} (from ${page}) ${JSON.stringify(confused)}`;
              assert.ok(res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
              // A number is a number's right type (a space's colour): only lists and objects must never be acted on.
              if (typeof confused.json?.[base] !== 'number') assert.notEqual(res.status, 303, `${what}: acted on`);
              fuzzed++;
            }
          }
        }
      }
    assert.ok(fuzzed > 200, `only ${fuzzed} requests`);
    assert.deepEqual(await counts(h()), before);
  });

  test('POST /dashboard/shorten with title[], space[], pixels[0][x], or JSON title: 5, country: {}: never 500, nothing written', async () => {
    const before = await counts(h());
    const csrf = await client.csrf('/dashboard');
    for (const form of [
      { url: 'https://example.com/a', 'title[]': '1' },
      { url: 'https://example.com/a', 'space[]': '1' },
      { url: 'https://example.com/a', 'pixels[0][x]': '1' },
    ]) {
      const res = await client.send('POST', '/dashboard/shorten', qs.stringify({ ...form, _csrf: csrf }), {
        'content-type': 'application/x-www-form-urlencoded',
      });
      // Fields the quick form does not have are dropped: the link is made from its three.
      assert.ok(res.status === 303 || res.status === 422, `${JSON.stringify(form)}: ${res.status}`);
    }
    for (const json of [
      { url: 'https://example.com/b', title: 5 },
      { url: 'https://example.com/b', country: {} },
      { url: ['https://example.com/b'] },
      { url: 'https://example.com/b', alias: { x: 1 } },
    ]) {
      const res = await client.send('POST', '/dashboard/shorten', JSON.stringify({ ...json, _csrf: csrf }), {
        'content-type': 'application/json',
      });
      assert.ok(res.status < 500, `${JSON.stringify(json)}: ${res.status}`);
    }
    const links = await client.send(
      'POST',
      '/links/new',
      qs.stringify({
        _csrf: await client.csrf('/links/new'),
        url: 'https://example.com/c',
        'title[]': ['1', '2'],
        country: { x: 1 },
      }),
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    assert.equal(links.status, 422);
    assert.match(links.text, /The title field must be a string\./);
    const after = await counts(h());
    // Only the quick form's drops may have made links (three at most); nothing else was written.
    assert.deepEqual(after.slice(1), before.slice(1));
  });
});

async function counts(h: Harness): Promise<number[]> {
  const db = h.server.container.storage.db;
  return Promise.all(
    (['links', 'pixels', 'spaces', 'domains', 'api_keys', 'accounts'] as const).map(async (t) =>
      Number(
        (
          await db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ),
  );
}

async function latestLink(h: Harness): Promise<number> {
  const row = await h.server.container.storage.db
    .selectFrom('links')
    .select('id')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The POST forms of a page: their action and the names of their fields (the CSRF token aside). */
function formsOf(html: string): { action: string; fields: string[] }[] {
  const forms: { action: string; fields: string[] }[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const attributes = match[1]!;
    if (!/method="post"/i.test(attributes)) continue;
    const action = /action="([^"]+)"/.exec(attributes)?.[1];
    if (!action) continue;
    const fields = [
      ...new Set(
        [...match[2]!.matchAll(/<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"/g)]
          .map((m) => m[1]!)
          .filter((n) => n !== '_csrf'),
      ),
    ];
    forms.push({ action: action.replace(/&amp;/g, '&').replace(/#.*$/, ''), fields });
  }
  return forms;
}
