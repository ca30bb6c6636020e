import type { OutgoingHttpHeader, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Page } from './pages/layout.ts';

/** What a visit answers, before it is written through Fastify or on node:http's response. */
export type Answer = (
  { kind: 'redirect'; status: number; location: string } | { kind: 'page'; status: number; page: Page }
) & {
  /** Set-Cookie values (a consent given, a link unlocked, a link's rules remembering a visitor). */
  cookies?: string[];
  /** Other headers before the answer's own (a Retry-After), lower case. */
  headers?: Record<string, string>;
};

/** Every visitor-facing page: its own CSP, never cached, never sniffed or framed. */
function pageHeaders(page: Page): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': page.csp,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

export function sendPage(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return reply.code(status).headers(pageHeaders(page)).send(page.html);
}

export function sendRedirect(reply: FastifyReply, status: number, url: string): FastifyReply {
  return reply.code(status).header('location', locationValue(url)).header('cache-control', 'no-store').send();
}

export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  if (answer.headers !== undefined) reply.headers(answer.headers);
  if (answer.cookies !== undefined) reply.header('set-cookie', answer.cookies);
  return answer.kind === 'redirect'
    ? sendRedirect(reply, answer.status, answer.location)
    : sendPage(reply, answer.status, answer.page);
}

/**
 * The same answer written on a bare node:http response (the door): one writeHead with its headers
 * as one flat list of names and values, in the order the Fastify reply writes them.
 */
export function writeAnswer(res: ServerResponse, answer: Answer): void {
  if (answer.headers !== undefined) setHeaders(res, answer.headers);
  if (answer.kind === 'redirect') {
    const headers: OutgoingHttpHeader[] = [
      'location',
      locationValue(answer.location),
      'cache-control',
      'no-store',
      'content-length',
      '0',
    ];
    if (answer.cookies !== undefined) headers.push('set-cookie', answer.cookies);
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  const { page } = answer;
  const body = Buffer.from(page.html, 'utf8');
  const headers: OutgoingHttpHeader[] = [
    'content-type',
    'text/html; charset=utf-8',
    'content-security-policy',
    page.csp,
    'cache-control',
    'no-store',
    'x-content-type-options',
    'nosniff',
    'referrer-policy',
    'no-referrer',
    'content-length',
    String(body.length),
  ];
  if (answer.cookies !== undefined) headers.push('set-cookie', answer.cookies);
  res.writeHead(answer.status, headers);
  res.end(body);
}

function setHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

const OUTSIDE_ASCII = /[^\x21-\x7e]/;

/**
 * A stored URL may hold non-ASCII text (an IDN host, a path in any script): Node refuses such a
 * header (ERR_INVALID_CHAR, a 500), and Latin-1 would be misread anyway. Anything outside
 * printable ASCII is percent-encoded as UTF-8, which is what a browser does with it.
 */
function locationValue(url: string): string {
  if (!OUTSIDE_ASCII.test(url)) return url;
  return url.replace(/[^\x21-\x7e]+/g, (run) =>
    Array.from(Buffer.from(run, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}
