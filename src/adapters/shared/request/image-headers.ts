import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The headers of every image linkpix serves (docs/api.md §6, docs/design/images.md), made once:
 * never sniffed as another type, and, opened as a document of this origin (an SVG can be one),
 * loading nothing but its own data: URIs and inline style, running no script, never framed.
 * The app's pages carry the same nosniff and framing rules (web/app/respond.ts).
 */
const IMAGE_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
});

/** Sends an image with the image headers: every route that answers one goes through here. */
export function sendImage(reply: FastifyReply, contentType: string, body: string | Buffer): FastifyReply {
  return reply.headers(IMAGE_HEADERS).type(contentType).send(body);
}

/**
 * The same headers for images a plugin sends itself (swagger-ui's icons): an onSend hook for
 * that plugin's scope alone, never the app's, where it would run for every redirect.
 */
export async function imageHeadersOnSend(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (String(reply.getHeader('content-type') ?? '').startsWith('image/')) reply.headers(IMAGE_HEADERS);
  return payload;
}
