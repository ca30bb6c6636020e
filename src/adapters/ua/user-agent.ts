import { createRequire } from 'node:module';
import { isbot } from 'isbot';
import type { Platform } from '../../core/targeting/target.ts';

export interface UserAgentInfo {
  platform: Platform | null;
  browser: string | null;
  device: string | null;
  isBot: boolean;
}

interface ParsedUA {
  os: { name?: string };
  browser: { name?: string };
  device: { type?: string };
}

// ua-parser-js 1.x ships no type declarations (and 2.x is AGPL): a typed require keeps strict
// mode honest without a project-wide ambient module. Called without `new` it returns the result.
const parseUA = createRequire(import.meta.url)('ua-parser-js') as (ua: string) => ParsedUA;

// ua-parser-js reads only this much itself; cutting before isbot and the cache key bounds both.
const MAX_UA_LENGTH = 500;
const CACHE_SIZE = 1000;

// Distributions ua-parser-js names on its own; anything else (BSDs, Plan 9, Tizen, webOS…) is
// not what a "Linux" entry is for.
const LINUX = new Set([
  'linux',
  'debian',
  'fedora',
  'arch',
  'gentoo',
  'slackware',
  'suse',
  'opensuse',
  'mint',
  'mageia',
  'vectorlinux',
  'mandriva',
  'centos',
  'pclinuxos',
  'red hat',
  'redhat',
  'zenwalk',
  'linpus',
  'raspbian',
  'deepin',
  'manjaro',
  'elementary os',
  'sabayon',
  'linspire',
]);
const DESKTOPS: ReadonlySet<Platform> = new Set<Platform>(['Windows', 'OS X', 'Linux', 'Ubuntu', 'Chrome OS']);

// Browsers always send a User-Agent; its absence is a script, and counting scripts as visits
// would inflate the statistics.
const NO_UA: UserAgentInfo = Object.freeze({ platform: null, browser: null, device: null, isBot: true });

const cache = new Map<string, UserAgentInfo>();

/** Platform (one of the seed's seven), browser family, device type and bot flag of a User-Agent. */
export function describeUserAgent(ua: string | undefined): UserAgentInfo {
  if (ua === undefined || ua.trim() === '') return NO_UA;
  const key = ua.length > MAX_UA_LENGTH ? ua.slice(0, MAX_UA_LENGTH) : ua;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const info = describe(key);
  // Oldest first out; a hit does not reorder (that cost more than the lookup), and browsers'
  // User-Agent strings are few enough that the common ones come straight back.
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, info);
  return info;
}

function describe(ua: string): UserAgentInfo {
  const parsed = parseUA(ua);
  const platform = platformOf(parsed.os.name);
  const type = parsed.device.type ?? null;
  return Object.freeze({
    platform,
    browser: parsed.browser.name ?? null,
    device: type ?? (platform !== null && DESKTOPS.has(platform) ? 'desktop' : null),
    isBot: isbot(ua),
  });
}

function platformOf(os: string | undefined): Platform | null {
  if (os === undefined) return null;
  const name = os.toLowerCase();
  switch (name) {
    case 'ios':
      return 'iOS'; // iPadOS says "iPad; CPU OS"; in desktop mode it claims to be a Mac
    case 'android':
    case 'android-x86':
    case 'android x86':
      return 'Android';
    case 'windows':
      return 'Windows'; // not Windows Phone/Mobile/IoT: they run no Windows downloads
    case 'mac os':
      return 'OS X';
    case 'chromium os':
      return 'Chrome OS';
  }
  // Kubuntu, Xubuntu, Lubuntu are Ubuntu with another desktop; "Ubuntu Touch" is a phone OS.
  if (/^[kxln]?ubuntu$/.test(name)) return 'Ubuntu';
  return LINUX.has(name) ? 'Linux' : null;
}
