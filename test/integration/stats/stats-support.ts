/**
 * Helpers for the statistics suites (not a test file: the runner picks *.test.ts only).
 * Clicks are made with real requests through the redirect; the harness runs with
 * TRUST_PROXY=true so X-Forwarded-For chooses the visitor's address (and country).
 */
import assert from 'node:assert/strict';
import type { Clock } from '../../../src/core/shared/clock.ts';
import type { Harness, Reply } from '../../support/harness.ts';
import { UA as BROWSERS } from '../redirect/redirect-support.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The redirect suites' real User-Agent strings, and one more browser for unique visitors. */
export const UA = {
  windowsChrome: BROWSERS.windows,
  iphone: BROWSERS.iphone,
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0',
  googlebot: BROWSERS.googlebot,
};
export const IP = { us: '8.8.8.8', gb: '81.2.69.160', se: '89.160.20.112' };

/** A clock the tests move by hand; clicks are stamped with its time. */
export class ManualClock implements Clock {
  constructor(private t = Date.parse('2026-03-10T12:00:00Z')) {}
  now(): number {
    return this.t;
  }
  set(iso: string): void {
    this.t = Date.parse(iso);
  }
}

export async function createLink(h: Harness, key: string, form: Record<string, unknown> = {}): Promise<Json> {
  const res = await h.request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/', ...form } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

export interface Visit {
  ip?: string;
  ua?: string;
  language?: string;
  referer?: string;
}

/** One visitor following the link; it must be redirected. */
export async function visit(h: Harness, link: Json, v: Visit = {}): Promise<void> {
  const headers: Record<string, string> = {
    accept: 'text/html',
    'user-agent': v.ua ?? UA.windowsChrome,
    'x-forwarded-for': v.ip ?? IP.us,
  };
  if (v.language) headers['accept-language'] = v.language;
  if (v.referer) headers.referer = v.referer;
  const res = await h.request('GET', `/${link.alias}`, { headers });
  assert.equal(res.status, 302, `visit of ${link.alias}: ${res.status} ${res.text.slice(0, 200)}`);
}

/** GET /api/v1/stats/{id} once every buffered click is written. */
export async function stats(
  h: Harness,
  key: string,
  id: number,
  query: Record<string, string | number>,
): Promise<Reply> {
  await h.server.container.visits.sink.flush();
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return h.request('GET', `/api/v1/stats/${id}?${qs.toString()}`, { key });
}

/** The data of a successful stats answer, as [value, count] pairs. */
export async function pairs(
  h: Harness,
  key: string,
  id: number,
  query: Record<string, string | number>,
): Promise<Array<[string | null, number]>> {
  const res = await stats(h, key, id, query);
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((e: Json) => [e.value, e.count]);
}

export async function clicksOf(h: Harness, key: string, id: number): Promise<number> {
  await h.server.container.visits.sink.flush();
  const res = await h.request('GET', `/api/v1/links/${id}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data.clicks;
}
