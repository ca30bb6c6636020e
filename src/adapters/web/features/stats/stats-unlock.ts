import { STATS_UNLOCK_COOKIE_PREFIX } from '../../../../core/privacy/visitor-cookies.ts';
import { randomToken } from '../../../../core/shared/secrets.ts';
import { STATS_PASSWORD_ATTEMPTS } from '../../../../core/stats/stats-access.ts';
import { MemoryAttemptLimiter } from '../../../state/memory-attempt-limiter.ts';
import { UnlockCookies } from '../../../shared/request/unlock-cookies.ts';
import type { WebOptions } from '../../app/web-context.ts';

/** A stats page's unlock cookie: its own name and path, sent to that link's stats pages only. */
export const STATS_UNLOCK_SCOPE = { prefix: STATS_UNLOCK_COOKIE_PREFIX, path: (linkId: number) => `/stats/${linkId}` };

/** The configured limiter and cookies, else this process's own (see WebOptions.statsPasswords). */
export function statsPasswordsOf(web: WebOptions): NonNullable<WebOptions['statsPasswords']> {
  return (
    web.statsPasswords ?? {
      attempts: new MemoryAttemptLimiter(STATS_PASSWORD_ATTEMPTS),
      cookies: new UnlockCookies(randomToken(32), false, STATS_UNLOCK_SCOPE),
    }
  );
}
