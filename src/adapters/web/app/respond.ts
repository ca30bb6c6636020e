import type { FastifyReply } from 'fastify';

/**
 * The policy of every app page: its own stylesheet and script only (no inline script or style
 * at all, so no nonce), forms to itself, never framed.
 */
const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function appPageHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': APP_CSP,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
  };
}

export function sendView(reply: FastifyReply, status: number, markup: string): FastifyReply {
  return reply.code(status).headers(appPageHeaders()).send(markup);
}

/** After a form that worked: 303, so reloading the next page does not post again. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

/** A path on this site to return to after signing in; anything else (other hosts, `//x`) goes home. */
export function safeNext(next: unknown, fallback = '/dashboard'): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return fallback;
  // Control characters (a header split, a path browsers would trim) make it no path of ours.
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(next) ? fallback : next;
}
