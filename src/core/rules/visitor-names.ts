import { PLATFORMS, type Platform } from '../targeting/target.ts';

// Spellings people use for the platforms the statistics record (docs/api.md §4), lower case
// and without spaces: "macOS", "Mac OS", "OSX" are all OS X.
const OS_ALIASES: Record<string, Platform> = {
  ios: 'iOS',
  ipados: 'iOS',
  iphone: 'iOS',
  android: 'Android',
  windows: 'Windows',
  win: 'Windows',
  osx: 'OS X',
  macos: 'OS X',
  mac: 'OS X',
  macosx: 'OS X',
  linux: 'Linux',
  ubuntu: 'Ubuntu',
  chromeos: 'Chrome OS',
  chromiumos: 'Chrome OS',
};

/** The recorded platform an os condition's value names, or null. */
export function osName(input: string): Platform | null {
  const key = input.toLowerCase().replace(/[\s_-]+/g, '');
  return OS_ALIASES[key] ?? PLATFORMS.find((p) => p === input) ?? null;
}

/**
 * Browser families a condition may name, each with the names ua-parser-js records for it: a
 * family also matches its mobile, "Mini" or web-view variants ("Safari" matches "Mobile Safari").
 */
const BROWSERS = [
  'Chrome',
  'Safari',
  'Firefox',
  'Edge',
  'Samsung Internet',
  'Opera',
  'IE',
  'Yandex',
  'UCBrowser',
  'Brave',
  'Vivaldi',
  'DuckDuckGo',
  'Facebook',
  'Instagram',
  'WeChat',
  'TikTok',
] as const;

const BROWSER_ALIASES: Record<string, string> = {
  googlechrome: 'Chrome',
  chromium: 'Chrome',
  mobilesafari: 'Safari',
  mozillafirefox: 'Firefox',
  microsoftedge: 'Edge',
  samsungbrowser: 'Samsung Internet',
  samsung: 'Samsung Internet',
  internetexplorer: 'IE',
  ucbrowser: 'UCBrowser',
  uc: 'UCBrowser',
};

/** The family a browser condition's value names, or null. */
export function browserFamily(input: string): string | null {
  const key = input.toLowerCase().replace(/[\s_-]+/g, '');
  return BROWSER_ALIASES[key] ?? BROWSERS.find((b) => b.toLowerCase().replace(/\s+/g, '') === key) ?? null;
}

/** Whether a recorded browser name belongs to a family. */
export function isOfFamily(recorded: string, family: string): boolean {
  if (recorded === family) return true;
  if (family === 'Chrome' && recorded === 'Chromium') return true;
  return recorded === `Mobile ${family}` || recorded.startsWith(`${family} `);
}

export const DEVICES = ['desktop', 'mobile', 'tablet'] as const;
