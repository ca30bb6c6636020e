import { createHmac, timingSafeEqual } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import { ruleCookieName } from '../../../core/rules/rule-cookie.ts';

/** Cookies are parsed here, only on the visits that need them, not by a hook on every request. */
export function readCookies(header: string | undefined): Record<string, string | undefined> {
  return header ? fastifyCookie.parse(header) : {};
}

const CONSENT_COOKIE = 'lp_consent';
const CONSENT_DAYS = 30;

export function consentOf(cookies: Record<string, string | undefined>): 'yes' | 'no' | null {
  const value = cookies[CONSENT_COOKIE];
  return value === 'yes' || value === 'no' ? value : null;
}

export function consentCookie(answer: 'yes' | 'no', secure: boolean): string {
  return fastifyCookie.serialize(CONSENT_COOKIE, answer, {
    path: '/',
    maxAge: CONSENT_DAYS * 86_400,
    httpOnly: true,
    sameSite: 'lax',
    secure,
  });
}

/** A link's visitor cookie (its rules' returning visitors and split variants, docs/adr/0059). */
export function ruleCookie(cookie: { name: string; value: string; maxAgeSeconds: number }, secure: boolean): string {
  return fastifyCookie.serialize(cookie.name, cookie.value, {
    path: '/',
    maxAge: cookie.maxAgeSeconds,
    httpOnly: true,
    sameSite: 'lax',
    secure,
  });
}

/** The link's visitor cookie from a Cookie header, read only for links whose rules use it. */
export function ruleCookieOf(
  link: { id: number; rules: { usesCookie: boolean } | null },
  header: string | undefined,
): string | undefined {
  if (link.rules === null || !link.rules.usesCookie || header === undefined) return undefined;
  return readCookies(header)[ruleCookieName(link.id)];
}

/**
 * The unlock cookie of a password-protected link: an HMAC over the link id and its current
 * password hash, so changing the password locks every earlier visitor out again.
 */
export class UnlockCookies {
  constructor(
    private readonly secret: string,
    private readonly secure: boolean,
    /** Another use of the same scheme (a stats page's password): its cookie name and path. */
    private readonly scope: { prefix: string; path: (linkId: number) => string } = {
      prefix: 'lp_unlock_',
      path: () => '/',
    },
  ) {}

  name(linkId: number): string {
    return `${this.scope.prefix}${linkId}`;
  }

  isUnlocked(cookies: Record<string, string | undefined>, link: { id: number; passwordHash: string | null }): boolean {
    if (link.passwordHash === null) return false;
    const presented = cookies[this.name(link.id)];
    if (!presented) return false;
    const expected = Buffer.from(this.token(link.id, link.passwordHash));
    const actual = Buffer.from(presented);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  serialize(link: { id: number; passwordHash: string }): string {
    return fastifyCookie.serialize(this.name(link.id), this.token(link.id, link.passwordHash), {
      path: this.scope.path(link.id),
      maxAge: 12 * 3600,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
    });
  }

  private token(linkId: number, passwordHash: string): string {
    return createHmac('sha256', this.secret).update(`unlock:${linkId}:${passwordHash}`).digest('base64url');
  }
}
