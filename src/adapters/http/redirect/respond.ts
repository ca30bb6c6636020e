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
  return reply.code(status).header('location', url).header('cache-control', 'no-store').send();
}
