import { fastifyCookie } from '@fastify/cookie';
import { ruleCookieName } from '../../core/rules/rule-cookie.ts';
import { CONSENT_COOKIE, CONSENT_COOKIE_DAYS } from '../../core/privacy/visitor-cookies.ts';

/** Cookies are parsed here, only on the visits that need them, not by a hook on every request. */
export function readCookies(header: string | undefined): Record<string, string | undefined> {
  return header ? fastifyCookie.parse(header) : {};
}

export function consentOf(cookies: Record<string, string | undefined>): 'yes' | 'no' | null {
  const value = cookies[CONSENT_COOKIE];
  return value === 'yes' || value === 'no' ? value : null;
}

export function consentCookie(answer: 'yes' | 'no', secure: boolean): string {
  return fastifyCookie.serialize(CONSENT_COOKIE, answer, {
    path: '/',
    maxAge: CONSENT_COOKIE_DAYS * 86_400,
    httpOnly: true,
    sameSite: 'lax',
    secure,
  });
}

/** A link's visitor cookie (its rules' returning visitors and split variants, docs/design/rules.md). */
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
