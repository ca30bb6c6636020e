import { createHmac, timingSafeEqual } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import { UNLOCK_COOKIE_HOURS, UNLOCK_COOKIE_PREFIX } from '../../../core/privacy/visitor-cookies.ts';

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
      prefix: UNLOCK_COOKIE_PREFIX,
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
      maxAge: UNLOCK_COOKIE_HOURS * 3600,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
    });
  }

  private token(linkId: number, passwordHash: string): string {
    return createHmac('sha256', this.secret).update(`unlock:${linkId}:${passwordHash}`).digest('base64url');
  }
}
