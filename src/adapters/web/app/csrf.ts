import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The form field and the header that carry the token. */
export const CSRF_FIELD = '_csrf';
const CSRF_HEADER = 'x-csrf-token';

/**
 * A form's token is an HMAC of what ties the browser to us: its session token when signed in,
 * else a random pre-session cookie. Nothing is stored; a token from another browser, or from
 * before a sign-in, does not match.
 */
export function csrfTokenFor(secret: string, binding: string): string {
  return createHmac('sha256', secret).update(`csrf:${binding}`).digest('base64url');
}

export function csrfTokenMatches(secret: string, binding: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const expected = Buffer.from(csrfTokenFor(secret, binding));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The token a request presents: the header (scripts) or the form field; never the URL, which logs keep. */
export function presentedToken(request: FastifyRequest): unknown {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string') return header;
  const body = request.body;
  if (body && typeof body === 'object' && CSRF_FIELD in body) return (body as Record<string, unknown>)[CSRF_FIELD];
  return undefined;
}

/**
 * Browsers say where a request comes from: a state-changing request from another site is
 * refused before its token is looked at (defence in depth; old browsers send neither header).
 */
export function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') return true;
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== request.host;
  } catch {
    return true;
  }
}
