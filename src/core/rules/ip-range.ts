import ipaddr from 'ipaddr.js';

// Addresses are read with ipaddr.js in the strict forms only: dotted IPv4 of four decimal parts,
// and colon-hex IPv6 whose embedded IPv4 tail is held to that form too. That is what a client
// address ever is; ipaddr.js alone would also read octal, hex and short IPv4 ("10.1" as 10.0.0.1).

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

export interface Address {
  ip: Ip;
}

export interface IpRange {
  ip: Ip;
  bits: number;
}

// The longest an IPv6 address can be written ("0000:…:ffff:255.255.255.255").
const MAX_V6_CHARS = 45;
// Matched as a range: isIPv4MappedAddress(), which toIPv4Address() calls too, would test the address
// against each of ipaddr.js's two dozen special ranges.
const IPV4_MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');

/** An IPv4 or IPv6 address (an IPv4-mapped IPv6 address as its IPv4); null when malformed. */
export function parseAddress(text: string): Address | null {
  // One family tried, not both: ipaddr.js finds out what a text is not by throwing, which costs
  // more than the whole reading of what it is.
  const ip = text.includes(':') ? readV6(text) : readV4(text);
  if (ip === null) return null;
  const mapped = ip instanceof ipaddr.IPv6 && ip.match(IPV4_MAPPED);
  return { ip: mapped ? new ipaddr.IPv4(ip.toByteArray().slice(12)) : ip };
}

function readV4(text: string): ipaddr.IPv4 | null {
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
}

/** Colon-hex IPv6; a zone id ("fe80::1%eth0") is not part of the address, whatever its characters. */
function readV6(text: string): ipaddr.IPv6 | null {
  const bare = text.replace(/%.*$/, '');
  if (bare.length > MAX_V6_CHARS) return null;
  const tail = bare.slice(bare.lastIndexOf(':') + 1);
  const dotted = tail.includes('.');
  if (dotted && !ipaddr.IPv4.isValidFourPartDecimal(tail)) return null;
  // "::a.b.c.d" is IPv4-compatible (RFC 4291 §2.5.5.1), not IPv4-mapped as ipaddr.js reads it:
  // written with its zero group, ipaddr.js reads it as the address it is.
  const spelled = dotted && bare === `::${tail}` ? `::0:${tail}` : bare;
  return ipaddr.IPv6.isValid(spelled) ? ipaddr.IPv6.parse(spelled) : null;
}

/** "10.0.0.0/8", "2001:db8::/32" or a single address; null when malformed. */
export function parseRange(text: string): IpRange | null {
  const slash = text.indexOf('/');
  const written = slash === -1 ? text : text.slice(0, slash);
  const address = parseAddress(written);
  if (address === null) return null;
  const max = address.ip.kind() === 'ipv4' ? 32 : 128;
  if (slash === -1) return { ip: address.ip, bits: max };
  const bitsText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  // An IPv4-mapped range ("::ffff:10.0.0.0/104") counts its prefix over the mapped 128 bits.
  const mappedShift = max === 32 && written.includes(':') ? 96 : 0;
  if (bits < mappedShift || bits - mappedShift > max) return null;
  return { ip: address.ip, bits: bits - mappedShift };
}

/** Families never match each other: an IPv4 address is in no IPv6 range. */
export function inRange(address: Address, range: IpRange): boolean {
  return address.ip.kind() === range.ip.kind() && address.ip.match(range.ip, range.bits);
}

/** The range written the one way, so that a repeat is seen as one ("10.0.0.1/8" is 10.0.0.0/8). */
export function formatRange(range: IpRange): string {
  const cidr = `${range.ip.toString()}/${range.bits}`;
  const network =
    range.ip instanceof ipaddr.IPv4
      ? ipaddr.IPv4.networkAddressFromCIDR(cidr)
      : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  return `${network.toString()}/${range.bits}`;
}
