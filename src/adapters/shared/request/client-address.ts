import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

/** TRUST_PROXY as configured: false, true, a hop count, or addresses/CIDRs (comma-separated). */
export type TrustProxy = boolean | number | string;

/** Whether the hop at `address`, `hop` steps from this server, is a proxy whose forwarded headers count. */
export type TrustFunction = (address: string, hop: number) => boolean;

/**
 * The one reading of TRUST_PROXY. Fastify receives this function as its trustProxy, and the
 * redirect's fast path (fast-redirect.ts) uses it too, so both see the same client address and
 * host. Null: nobody is trusted, forwarded headers are ignored.
 */
export function trustFunction(option: TrustProxy): TrustFunction | null {
  if (option === false) return null;
  if (option === true) return () => true;
  if (typeof option === 'number') {
    const hops = option;
    return (_address, hop) => hop < hops;
  }
  return proxyAddr.compile(
    option
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}

/** What the address and host are read from: the part of node:http's IncomingMessage they need. */
export interface ForwardedRequest {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined };
}

/** The visitor's address: the socket's peer, or the nearest untrusted X-Forwarded-For hop. */
export function clientAddress(req: ForwardedRequest, trust: TrustFunction | null): string {
  if (trust === null) return req.socket.remoteAddress ?? '';
  // proxy-addr reads only headers['x-forwarded-for'] and socket.remoteAddress (its own
  // forwarded()), which any ForwardedRequest has; its types ask for a whole IncomingMessage.
  return proxyAddr(req as IncomingMessage, trust);
}

/** The Host the visitor asked for: X-Forwarded-Host (its last entry) from a trusted proxy, else Host. */
export function requestHost(req: ForwardedRequest, trust: TrustFunction | null): string {
  const forwarded = req.headers['x-forwarded-host'];
  if (trust !== null && forwarded && trust(req.socket.remoteAddress ?? '', 0)) {
    const value = Array.isArray(forwarded) ? forwarded[forwarded.length - 1]! : forwarded;
    const comma = value.lastIndexOf(',');
    return (comma === -1 ? value : value.slice(comma + 1)).trim();
  }
  const host = req.headers.host;
  return (Array.isArray(host) ? host[0] : host) ?? '';
}

// Nearly every request names the same host or two: the last answer is kept.
let lastHost = '';
let lastName = '';

/** A Host value as links are looked up by it: lower case, no port, no trailing dot. */
export function hostnameOf(host: string): string {
  if (host === lastHost) return lastName;
  const name = host[0] === '[' ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0]!;
  lastName = name.toLowerCase().replace(/\.$/, '');
  lastHost = host;
  return lastName;
}

/**
 * The address a limit counts by: an IPv4 address as it is (an IPv4-mapped IPv6 one unwrapped),
 * an IPv6 address by its /64, the block one subscriber is given, so that a client cannot take
 * a fresh allowance from each of its 2^64 addresses. Anything unparsable counts as itself.
 */
export function limitAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
