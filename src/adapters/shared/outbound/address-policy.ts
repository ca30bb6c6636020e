import ipaddr from 'ipaddr.js';
import { isIP, type LookupFunction } from 'node:net';

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * True when `ip` is an address a server may safely connect to on behalf of a user: one that
 * ipaddr.js classes as plain unicast, which leaves out loopback, private, link-local (cloud
 * metadata), unique-local, CGNAT, multicast, broadcast, documentation, benchmarking and the other
 * reserved blocks; an IPv6 address must also be global unicast (2000::/3), and one that carries
 * an IPv4 address is as public as that address. Anything that is not a valid IP literal is not
 * public (node:net's test: shorthand like 127.1 is a host name, not an address).
 */
export function isPublicAddress(ip: string): boolean {
  const version = isIP(ip);
  if (version === 0) return false;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded !== null) return embedded.range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST);
}

/**
 * The IPv4 address an IPv6 one carries, which is what really gets reached: in the last 32 bits
 * for ::ffff:0:0/96 (mapped), ::ffff:0:0:0/96 (RFC 6145) and 64:ff9b::/96 (NAT64); in the 32 bits
 * after the prefix for 2002::/16 (6to4).
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const word = (i: number): number => address.parts[i] ?? 0;
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(NAT64)) return fromWords(word(6), word(7));
  if (range === '6to4') return fromWords(word(1), word(2));
  return null;
}

function fromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * Wraps a dns.lookup-style function so that only allowed addresses ever reach the socket:
 * disallowed answers are dropped, and if none remain the lookup fails (EADDRBLOCKED). Handles
 * both the single-answer and the `all: true` calling styles (Node asks for all answers when
 * autoSelectFamily is on). Given as a socket's `lookup`, the address checked is the one
 * connected to: a second, different DNS answer (rebinding) never gets a say.
 */
export function guardedLookup(isAllowed: (ip: string) => boolean, resolve: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, answer) => {
      if (error) {
        callback(error, '');
        return;
      }
      const answers = typeof answer === 'string' ? [{ address: answer, family: isIP(answer) }] : answer;
      const allowed = answers.filter((entry) => isAllowed(entry.address));
      const first = allowed[0];
      if (first === undefined) {
        const blocked: NodeJS.ErrnoException = new Error(`${hostname} resolves only to disallowed addresses`);
        blocked.code = 'EADDRBLOCKED';
        callback(blocked, '');
        return;
      }
      if (options.all) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}
