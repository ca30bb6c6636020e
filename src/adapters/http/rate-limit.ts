import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { digest } from '../../core/shared/secrets.ts';
import { bearerToken, isAuthenticated } from './auth.ts';
import { limitAddress } from '../shared/request/client-address.ts';
import type { RateLimitSettings } from '../shared/request/rate-limit-settings.ts';

/**
 * Per live key (hashed: the limiter's memory never holds a secret); every request without one —
 * no key, or a wrong, revoked or guessed one — counts against the client's address, so trying
 * many keys from one address is limited as one client. Runs after the key is looked up
 * (identifyApiKey) and before a failed lookup is refused (requireApiKey).
 */
export async function installRateLimit(
  scope: FastifyInstance,
  limit: RateLimitSettings,
  keyOf: (request: FastifyRequest) => string = keyOrAddress,
): Promise<void> {
  if (limit.max === 0) return;
  await scope.register(rateLimit, {
    // Not global: the plugin would attach its hook to each route, and route hooks run after the
    // scope's authentication hook, so a bad key would be refused before it was ever counted.
    global: false,
    max: limit.max,
    timeWindow: limit.windowMs,
    ...(limit.store ? { store: limit.store } : {}),
    keyGenerator: keyOf,
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error('Too Many Attempts.'), { statusCode: context.statusCode }),
  });
  scope.addHook('onRequest', scope.rateLimit());
}

function keyOrAddress(request: FastifyRequest): string {
  const token = bearerToken(request);
  return token !== null && isAuthenticated(request) ? `key:${digest(token)}` : `ip:${limitAddress(request.ip)}`;
}
