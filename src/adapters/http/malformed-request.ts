import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { errorEnvelope } from '../shared/errors/error-handler.ts';

/**
 * Requests node:http lets through that HTTP/1.1 still forbids, refused with a 400 (docs/api.md §1):
 *
 * - a second Host field (RFC 9112 §3.2): node:http keeps the first and drops the rest, a proxy
 *   in front may keep the last, and the Host picks the custom domain the link is looked up on;
 * - a `#` in the request target (RFC 9112 §3.2: a target has no fragment): passed on, it would
 *   become part of the destination's query.
 *
 * Checked once, where node:http hands the request over (markMalformed, before the visit path,
 * which then leaves it to Fastify), and answered by a Fastify hook (refuseMalformed), so that
 * the refusal has the API's envelope, its request id and a lingering close like any other answer.
 */
export function isMalformed(url: string, rawHeaders: readonly string[]): boolean {
  return url.includes('#') || repeatsHost(rawHeaders);
}

/** Two or more Host fields in node:http's rawHeaders (names and values, alternating, as sent). */
export function repeatsHost(rawHeaders: readonly string[]): boolean {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    // Only four-letter names are compared, so most headers cost one length check.
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) return true;
  }
  return false;
}

/** Requests found malformed, for Fastify's hook to refuse. */
const malformed = new WeakSet<IncomingMessage>();

/** True, and the request remembered as one Fastify refuses, when it is malformed. */
export function markMalformed(req: IncomingMessage): boolean {
  if (!isMalformed(req.url ?? '', req.rawHeaders)) return false;
  malformed.add(req);
  return true;
}

/** The 400 for a request markMalformed found, closing the connection. */
export function refuseMalformed(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!malformed.has(request.raw)) return done();
    void reply.code(400).header('connection', 'close').send(errorEnvelope(400));
  });
}
