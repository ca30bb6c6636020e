import { domainToASCII } from 'node:url';
import { normalizeHostName } from '../../core/domains/domain.ts';

/** Longer than any host name: a query past it is refused before it is parsed. */
const MAX_RAW = 1024;
/** ASCII other than letters, digits, hyphen and dot: domainToASCII would read `a/b` as the host `a`. */
const NOT_IN_A_NAME = /[^A-Za-z0-9.\-\u0080-\uffff]/;

/**
 * The name a TLS client asked for (Caddy's on-demand `ask`), as domains are stored: lower case,
 * one trailing dot dropped, internationalised labels in punycode. Null for what cannot be a host
 * at all; `name` null for a host that is no domain name (an IP, a single label). `host` is kept
 * so that the app's own host (localhost, say) is still recognised.
 */
export function tlsNameOf(input: string): { host: string; name: string | null } | null {
  if (input.length === 0 || input.length > MAX_RAW || NOT_IN_A_NAME.test(input)) return null;
  const trimmed = input.endsWith('.') ? input.slice(0, -1) : input;
  // domainToASCII lower-cases and encodes; it answers '' for what cannot be a domain.
  const host = domainToASCII(trimmed);
  if (host === '') return null;
  return { host, name: normalizeHostName(host) };
}
