import { BlockList, isIP } from 'node:net';

// Everything here is either not globally routable or not meant to be reached
// from a server fetching arbitrary user-supplied URLs (RFC 6890 and successors).
const nonPublicV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches localhost on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, home of cloud metadata endpoints
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast
] as const) {
  nonPublicV4.addSubnet(network, prefix, 'ipv4');
}

// IPv6 is an allow-list: only global unicast (2000::/3) can be public, which
// rules out ::, ::1, fc00::/7, fe80::/10, ff00::/8 and future oddities at once.
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

const nonPublicV6 = new BlockList();
for (const [network, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo, ORCHID, benchmarking
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
] as const) {
  nonPublicV6.addSubnet(network, prefix, 'ipv6');
}

/**
 * True when `ip` is an address a server may safely connect to on behalf of a
 * user. Anything that is not a valid IP literal is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const version = isIP(ip);
  if (version === 4) return !nonPublicV4.check(ip, 'ipv4');
  if (version !== 6) return false;

  // A zone id only makes sense for link-local addresses, which are rejected
  // anyway; BlockList does not understand it.
  const address = ip.split('%', 1)[0] ?? '';
  const words = ipv6Words(address);

  // These prefixes carry an IPv4 address that is what really gets reached, so
  // they are exactly as public as the embedded address.
  const embedded = embeddedIPv4(words);
  if (embedded !== null) return !nonPublicV4.check(embedded, 'ipv4');

  return globalUnicastV6.check(address, 'ipv6') && !nonPublicV6.check(address, 'ipv6');
}

/** Returns the IPv4 address tunnelled or mapped inside an IPv6 one, if any. */
function embeddedIPv4(w: readonly number[]): string | null {
  const at = (i: number): number => w[i] ?? 0;
  const zeros = (from: number, to: number): boolean => w.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (IPv4-mapped): the kernel connects to a.b.c.d.
  if (zeros(0, 5) && at(5) === 0xffff) return dotted(at(6), at(7));
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix): the gateway connects to a.b.c.d.
  if (at(0) === 0x64 && at(1) === 0xff9b && zeros(2, 6)) return dotted(at(6), at(7));
  // 2002:AABB:CCDD::/48 (6to4): the relay connects to the embedded address.
  if (at(0) === 0x2002) return dotted(at(1), at(2));
  return null;
}

function dotted(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Expands an already validated IPv6 literal into its eight 16-bit words. */
function ipv6Words(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // Rewrite a trailing dotted quad as two hex words so one parser suffices.
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const [head = '', rest] = text.split('::');
  if (rest === undefined) return parse(head);
  const left = parse(head);
  const right = parse(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
