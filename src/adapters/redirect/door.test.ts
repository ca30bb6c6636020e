// The door alone, with fake requests and a fake context: what it takes, what it leaves to
// Fastify, and what it answers when a shared store fails. (Through a real server, with the
// route side by side: test/integration/redirect/fast-path.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClickQuota } from '../../core/clicks/ports.ts';
import type { RedirectLink } from '../../core/redirect/redirect-link.ts';
import { fastVisit, visitDoor } from './door.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';
import { fakeRedirectContext } from '../../../test/support/redirect-context.ts';
import { RedirectMeter } from '../metrics/redirect-meter.ts';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

const link = (over: Partial<RedirectLink> = {}): RedirectLink =>
  aRedirectLink({ accountId: 1, alias: 'go', url: 'https://example.com/p', lastRotation: -1, ...over });

interface Written {
  status: number;
  headers: Record<string, string>;
  body: string;
  destroyed: boolean;
}

function setup(
  links: Record<string, RedirectLink>,
  over: { quota?: ClickQuota; open?: boolean; meter?: RedirectMeter } = {},
) {
  const errors: unknown[] = [];
  const { ctx, clicks } = fakeRedirectContext({ quota: over.quota });
  const serve = visitDoor(
    fastVisit(ctx, {
      links: { peek: (host, alias) => (host === 'short.test' ? links[alias.toLowerCase()] : undefined) },
      trust: null,
      appSegments: new Set(['health', 'api']),
      open: () => over.open ?? true,
      meter: over.meter ?? null,
    }),
    (e) => void errors.push(e),
  );
  const visit = (url: string, method = 'GET', headers: Record<string, string> = {}) => {
    const written: Written = { status: 0, headers: {}, body: '', destroyed: false };
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const req = {
      method,
      url,
      headers: { host: 'short.test:8080', 'user-agent': BROWSER, ...headers },
      rawHeaders: ['Host', 'short.test:8080'],
      socket: { remoteAddress: '8.8.8.8' },
    };
    const res = {
      headersSent: false,
      writeHead(status: number, h: string[] | Record<string, string>) {
        written.status = status;
        // An answer's headers come as one flat list of names and values; a failure's as an object.
        written.headers = Array.isArray(h)
          ? Object.fromEntries(h.flatMap((v, i) => (i % 2 === 0 ? [[v, h[i + 1]!]] : [])))
          : h;
        this.headersSent = true;
      },
      end(body?: string | Buffer) {
        written.body = body === undefined ? '' : String(body);
        done();
      },
      destroy() {
        written.destroyed = true;
        done();
      },
    };
    const taken = serve(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    return { taken, written, finished };
  };
  return { visit, clicks, errors };
}

test('a cached plain link is answered here: the redirect, no caching, one click', () => {
  const { visit, clicks } = setup({ go: link() });
  const { taken, written } = visit('/GO?utm_source=x');
  assert.equal(taken, true);
  assert.deepEqual(written.headers, {
    location: 'https://example.com/p?utm_source=x',
    'cache-control': 'no-store',
    'content-length': '0',
  });
  assert.equal(written.status, 302);
  assert.equal(clicks.length, 1);
  assert.equal(clicks[0]!.country, 'US');
});

test('HEAD is answered without a click', () => {
  const { visit, clicks } = setup({ go: link() });
  assert.equal(visit('/go', 'HEAD').written.status, 302);
  assert.equal(clicks.length, 0);
});

test('everything else is left to Fastify, before any side effect', () => {
  const { visit, clicks } = setup({ go: link() });
  for (const [url, method] of [
    ['/go', 'POST'],
    ['/go/+', 'GET'],
    ['/g%6F', 'GET'],
    ['/health', 'GET'],
    ['/unknown', 'GET'],
    ['/', 'GET'],
    ['go', 'GET'],
  ] as const) {
    const { taken, written } = visit(url, method);
    assert.equal(taken, false, `${method} ${url} was taken`);
    assert.equal(written.status, 0);
  }
  assert.equal(clicks.length, 0);
});

test("a cached link's pages are answered here too, reading and setting the route's cookies", () => {
  const { visit, clicks } = setup({
    locked: link({ passwordHash: 'x' }),
    pixels: link({ pixels: [{ type: 'facebook', value: '1' }] }),
    off: link({ disabled: true }),
  });
  const locked = visit('/locked');
  assert.equal(locked.taken, true);
  assert.equal(locked.written.status, 200);
  assert.match(locked.written.body, /password/i);
  const consent = visit('/pixels');
  assert.equal(consent.written.status, 200);
  assert.match(consent.written.body, /consent|cookie/i);
  const given = visit('/pixels', 'GET', { cookie: 'lp_consent=no' });
  assert.equal(given.written.status, 302, 'a consent refused goes on without the pixels');
  assert.equal(visit('/off').written.status, 404);
  assert.equal(clicks.length, 1);
});

test('an expired link is answered as the route answers it (the same visitAnswer), without a click', () => {
  const { visit, clicks } = setup({
    capped: link({ expirationClicks: 1, clicks: 1 }),
    moved: link({ expirationClicks: 1, clicks: 1, expirationUrl: 'https://example.com/over' }),
  });
  const page = visit('/capped');
  assert.equal(page.taken, true);
  assert.equal(page.written.status, 410);
  const moved = visit('/moved');
  assert.equal(moved.written.status, 302);
  assert.equal(moved.written.headers.location, 'https://example.com/over');
  assert.equal(clicks.length, 0);
});

test('once the server is closing, Fastify answers (503)', () => {
  const { visit } = setup({ go: link() }, { open: false });
  assert.equal(visit('/go').taken, false);
});

test('a cap kept in a shared store is awaited before the answer', async () => {
  let claims = 0;
  const quota: ClickQuota = {
    claim: async () => ++claims <= 1,
    exhausted: async () => claims >= 1,
    forget: async () => {},
  };
  const { visit, clicks } = setup({ go: link({ expirationClicks: 1 }) }, { quota });
  const first = visit('/go');
  assert.equal(first.taken, true);
  await first.finished;
  assert.equal(first.written.status, 302);
  const second = visit('/go');
  await second.finished;
  assert.equal(second.written.status, 410, 'the cap is used up: the expired page');
  assert.equal(clicks.length, 1);
});

test('a shared store that fails gives a 500 envelope and is reported, never an unanswered request', async () => {
  const broken: ClickQuota = {
    claim: async () => {
      throw new Error('redis down');
    },
    exhausted: async () => false,
    forget: async () => {},
  };
  const { visit, errors, clicks } = setup({ go: link({ expirationClicks: 5 }) }, { quota: broken });
  const { taken, written, finished } = visit('/go');
  assert.equal(taken, true);
  await finished;
  assert.equal(written.status, 500);
  assert.deepEqual(JSON.parse(written.body), { message: 'Server Error', status: 500 });
  assert.equal(errors.length, 1);
  assert.equal(clicks.length, 0);
});

test('with metrics on, each answer it takes is counted by status and timed; what it leaves to Fastify is not', async () => {
  let claims = 0;
  const quota: ClickQuota = {
    claim: async () => {
      if (++claims > 2) throw new Error('redis down');
      return claims <= 1;
    },
    exhausted: async () => false,
    forget: async () => {},
  };
  const meter = new RedirectMeter();
  const { visit } = setup({ go: link(), capped: link({ expirationClicks: 1 }) }, { quota, meter });
  visit('/go');
  visit('/go', 'HEAD');
  for (let i = 0; i < 3; i++) await visit('/capped').finished;
  assert.equal(visit('/go', 'POST').taken, false);
  assert.equal(visit('/unknown').taken, false);
  const counted = Object.fromEntries([...meter.fastStatuses.entries()].filter(([, n]) => n > 0));
  assert.deepEqual(counted, { 302: 3, 410: 1, 500: 1 });
  assert.equal(meter.fastAnswers, 5);
  assert.ok(meter.fast.sumSeconds > 0);
  assert.equal(meter.route.count, 0);
});
