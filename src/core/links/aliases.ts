import { randomInt } from 'node:crypto';

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * First path segments the app serves itself. Compared case-insensitively, like aliases.
 * Kept generous: claiming a name later would break links people already printed.
 */
const RESERVED_ALIASES: ReadonlySet<string> = new Set([
  'api',
  'links',
  'link',
  'pixels',
  'pixel',
  'spaces',
  'domains',
  'stats',
  'login',
  'logout',
  'register',
  'signup',
  'theme',
  'dashboard',
  'admin',
  'assets',
  'static',
  'public',
  'health',
  'healthz',
  'metrics',
  'docs',
  'openapi',
  'favicon.ico',
  'robots.txt',
  'sitemap.xml',
  'account',
  'settings',
  'developers',
  'qr',
  'preview',
  'password',
  'consent',
  'app',
  'web',
  'www',
  'shorten',
  'index',
  'home',
  'about',
  'terms',
  'privacy',
  'contact',
  'pricing',
  'help',
  'support',
  'status',
  'tls',
  'webhooks',
  'well-known',
  '.well-known',
]);

export function isReservedAlias(alias: string): boolean {
  return RESERVED_ALIASES.has(alias.toLowerCase());
}

// Lower-case letters and digits only: lookups ignore case, so mixed case would add no room.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlias(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
