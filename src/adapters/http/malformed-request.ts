/**
 * Requests node:http lets through that HTTP/1.1 still forbids, refused with a 400 on every path
 * (the fast lane declines them, the fast path on node:http leaves them to Fastify, and a
 * Fastify hook answers them):
 *
 * - a second Host field (RFC 9112 §3.2): node:http keeps the first and drops the rest, a proxy
 *   in front may keep the last, and the Host picks the custom domain the link is looked up on;
 * - a `#` in the request target (RFC 9112 §3.2: a target has no fragment): passed on, it would
 *   become part of the destination's query.
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
