// Issue 48's nit: every image linkpix serves carries the same security headers (docs/api.md §6).
// The routes are walked from the app's own table and its OpenAPI document, so that an image route
// added later without a URL here fails this test rather than going unchecked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { onEachEngine } from '../../support/harness.ts';
import { multipartBody } from '../../support/multipart.ts';
import { greenPng } from '../../support/qr-logos.ts';
import { routeTable } from '../../support/route-table.ts';
import { webAccount } from '../../support/web-resources.ts';

const IMAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
};

const IMAGE_PATH = /\.(png|svg|gif|ico|jpe?g|webp|avif)$/;

/** swagger-ui's own files, served under /docs/static/ by its wildcard route. */
const SWAGGER_STATIC = join(
  dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')),
  'static',
);

onEachEngine('every image served carries the image headers', (h) => {
  test('each image route, from the route table and the OpenAPI document, answers them', async () => {
    const me = await webAccount(h());
    const made = await h().request('POST', '/api/v1/links', {
      key: me.key,
      form: { url: 'https://example.com/img', alias: 'img-headers' },
    });
    const id = made.body.data.id as number;
    const logo = await multipartBody([{ field: 'logo', bytes: greenPng(), name: 'logo.png' }], {}, 'PUT');
    assert.equal((await h().request('PUT', `/api/v1/links/${id}/qr-logo`, { key: me.key, ...logo })).status, 200);
    const image = await multipartBody([{ field: 'image', bytes: greenPng(), name: 'card.png' }], {}, 'PUT');
    const card = await h().request('PUT', `/api/v1/links/${id}/social-card/image`, { key: me.key, ...image });
    assert.equal(card.status, 200, card.text);

    const api = (path: string) => () => h().request('GET', path, { key: me.key });
    const web = (path: string) => () => me.client.get(path);
    const anyone =
      (path: string, method = 'GET') =>
      () =>
        fetch(`${h().baseUrl}${path}`, { method });
    const swaggerImages = readdirSync(SWAGGER_STATIC).filter((f) => IMAGE_PATH.test(f));
    assert.ok(swaggerImages.length > 0, 'swagger-ui ships icons');
    // Each image route and the requests that reach its images (with and without a logo, each format).
    const urls: Record<string, Array<() => Promise<{ status: number; headers: Headers }>>> = {
      '/api/v1/links/:id/qr': [
        `/api/v1/links/${id}/qr`,
        `/api/v1/links/${id}/qr?format=png`,
        `/api/v1/links/${id}/qr?logo=false&style=rounded`,
      ].map(api),
      '/links/:id/qr.png': [web(`/links/${id}/qr.png`)],
      '/links/:id/qr.svg': [web(`/links/${id}/qr.svg`), web(`/links/${id}/qr.svg?style=rounded`)],
      '/favicon.ico': [anyone('/favicon.ico')],
      '/favicon.svg': [anyone('/favicon.svg')],
      '/c/:click(^[A-Za-z0-9_-]{1,64}).gif': [
        anyone('/c/no-such-click.gif?name=lead'),
        anyone('/c/no-such-click.gif', 'HEAD'),
      ],
      '/public/cards/:id(^[1-9][0-9]{0,15})/:hash(^[0-9a-f]{16}).png': [
        anyone(new URL(card.body.data.social_card.image).pathname),
        anyone(new URL(card.body.data.social_card.image).pathname, 'HEAD'),
      ],
      '/docs/static/theme/favicon.svg': [anyone('/docs/static/theme/favicon.svg')],
      '/docs/*': swaggerImages.map((file) => anyone(`/docs/static/${file}`)),
    };

    const documented = Object.entries(
      (
        h().server.app.swagger() as {
          paths: Record<string, Record<string, { responses?: Record<string, { content?: object }> }>>;
        }
      ).paths,
    )
      .filter(([, operations]) =>
        Object.values(operations).some((op) =>
          Object.values(op.responses ?? {}).some((r) =>
            Object.keys(r.content ?? {}).some((type) => type.startsWith('image/')),
          ),
        ),
      )
      .map(([path]) => path.replace(/\{(\w+)\}/g, ':$1'));
    const imageRoutes = routeTable(h().server.app)
      .filter(
        (r) =>
          r.methods.includes('GET') && (IMAGE_PATH.test(r.path) || r.path === '/docs/*' || documented.includes(r.path)),
      )
      .map((r) => r.path);
    assert.ok(documented.length > 0 && imageRoutes.length >= 7, imageRoutes.join(' '));
    assert.deepEqual([...new Set(imageRoutes)].sort(), Object.keys(urls).sort(), 'every image route has its URLs here');

    for (const [route, requests] of Object.entries(urls)) {
      for (const ask of requests) {
        const res = await ask();
        assert.equal(res.status, 200, route);
        assert.match(res.headers.get('content-type') ?? '', /^image\//, route);
        for (const [name, value] of Object.entries(IMAGE_HEADERS))
          assert.equal(res.headers.get(name), value, `${name} of ${route}`);
      }
    }
  });
});
