import type { FastifyReply } from 'fastify';
import type { Page } from '../../web/pages/layout.ts';

/** Every visitor-facing page: its own CSP, never cached, never sniffed or framed. */
export function sendPage(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return reply.code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', page.csp)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(page.html);
}

export function sendRedirect(reply: FastifyReply, status: number, url: string): FastifyReply {
  return reply.code(status).header('location', locationValue(url)).header('cache-control', 'no-store').send();
}

/**
 * A stored URL may hold non-ASCII text (an IDN host, a path in any script): Node refuses such a
 * header (ERR_INVALID_CHAR, a 500), and Latin-1 would be misread anyway. Anything outside
 * printable ASCII is percent-encoded as UTF-8, which is what a browser does with it.
 */
export function locationValue(url: string): string {
  return url.replace(/[^\x21-\x7e]+/g, (run) =>
    Array.from(Buffer.from(run, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}
