import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { TooManyAttemptsError } from '../../../core/shared/errors.ts';
import type { RateLimitSettings } from '../../shared/request/rate-limit-settings.ts';
import { limitAddress } from '../../shared/request/client-address.ts';

/**
 * The web app's requests per signed-in account, or per client address for whoever is signed out
 * (a session cookie no session matches counts as signed out, so inventing cookies buys nothing).
 * Runs after the session is resolved, before anything else of the route; only the web app's
 * scope has it, so its assets and the visitors' redirect are never limited. Past the limit, the
 * app's "too many" page (429, Retry-After) through the scope's error handler.
 */
export async function installWebRateLimit(web: FastifyInstance, limit: RateLimitSettings): Promise<void> {
  if (limit.max === 0) return;
  await web.register(rateLimit, {
    global: false,
    max: limit.max,
    timeWindow: limit.windowMs,
    ...(limit.store ? { store: limit.store } : {}),
    keyGenerator: (request) =>
      request.viewer ? `account:${request.viewer.account.id}` : `ip:${limitAddress(request.ip)}`,
    errorResponseBuilder: (_request, context) => new TooManyAttemptsError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  web.addHook('onRequest', web.rateLimit());
}
