// The core may not use ipaddr.js (docs/adr/0022 keeps parsing libraries in adapters), and rules
// are checked and compiled in the core: addresses are read here, in the strict dotted and
// colon-hex forms only (no octal, no short IPv4), which is what a client address ever is.

export interface Address {
  bytes: Uint8Array;
}

export interface IpRange {
  bytes: Uint8Array;
  bits: number;
}

const V4 =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX = /^[0-9a-f]{1,4}$/i;

/** An IPv4 address as 4 bytes, an IPv6 one as 16 (an IPv4-mapped IPv6 address as its IPv4). */
export function parseAddress(text: string): Address | null {
  const v4 = dottedQuad(text);
  if (v4 !== null) return { bytes: v4 };
  const bytes = parseV6(text.replace(/%.*$/, ''));
  if (bytes === null) return null;
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return { bytes: mapped ? bytes.slice(12) : bytes };
}

/**
 * Strict dotted IPv4 ("10.0.0.1": four decimal parts 0–255, no leading zeros), read character by
 * character: the redirect reads a visitor's address with it on every visit of a link with an ip rule.
 */
function dottedQuad(text: string): Uint8Array | null {
  if (text.length < 7 || text.length > 15) return null;
  const out = new Uint8Array(4);
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 46 /* . */ : text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || part > 3) return null;
      out[part++] = value;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && value === 0) return null;
      value = value * 10 + (c - 48);
      if (value > 255) return null;
      digits++;
    } else return null;
  }
  return part === 4 ? out : null;
}

function parseV6(text: string): Uint8Array | null {
  if (!text.includes(':') || text.length > 45) return null;
  let body = text;
  const lastColon = body.lastIndexOf(':');
  const last = body.slice(lastColon + 1);
  // An embedded IPv4 tail ("::ffff:10.0.0.1") is its last two groups.
  if (last.includes('.')) {
    const v4 = V4.exec(last);
    if (v4 === null) return null;
    const [a, b, c, d] = v4.slice(1, 5).map(Number) as [number, number, number, number];
    body = `${body.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...head, ...rest].every((g) => HEX.test(g))) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...new Array<string>(missing).fill('0'), ...rest].map((g) => parseInt(g, 16));
  const out = new Uint8Array(16);
  all.forEach((w, i) => {
    out[i * 2] = w >> 8;
    out[i * 2 + 1] = w & 0xff;
  });
  return out;
}

/** "10.0.0.0/8", "2001:db8::/32" or a single address; null when malformed. */
export function parseRange(text: string): IpRange | null {
  const slash = text.indexOf('/');
  const address = parseAddress(slash === -1 ? text : text.slice(0, slash));
  if (address === null) return null;
  const max = address.bytes.length * 8;
  if (slash === -1) return { bytes: address.bytes, bits: max };
  const bitsText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  // An IPv4-mapped range ("::ffff:10.0.0.0/104") counts its prefix over the mapped 128 bits.
  const mappedShift = address.bytes.length === 4 && text.slice(0, slash).includes(':') ? 96 : 0;
  if (bits < mappedShift || bits - mappedShift > max) return null;
  return { bytes: address.bytes, bits: bits - mappedShift };
}

export function inRange(address: Address, range: IpRange): boolean {
  if (address.bytes.length !== range.bytes.length) return false;
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address.bytes[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/** The range written the one way, so that a repeat is seen as one ("10.0.0.1/8" is 10.0.0.0/8). */
export function formatRange(range: IpRange): string {
  const bytes = range.bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, range.bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  if (bytes.length === 4) return `${bytes.join('.')}/${range.bits}`;
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${compress(words)}/${range.bits}`;
}

function compress(words: string[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best === -1) return words.join(':');
  return `${words.slice(0, best).join(':')}::${words.slice(best + bestLen).join(':')}`;
}
