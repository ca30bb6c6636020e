import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Checks an Authorization header against METRICS_TOKEN without telling, by its time, how much of
 * the token was right: both sides are hashed to the same length and compared in constant time.
 */
export function bearerTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}
