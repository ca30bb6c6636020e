import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

/** A request limit as the composition root sets it: the API's (API_RATE_LIMIT) and the web app's (WEB_RATE_LIMIT). */
export interface RateLimitSettings {
  /** Requests per window; 0 turns limiting off. */
  max: number;
  windowMs: number;
  /** Where the counts are kept; this instance's memory when absent (sharedRateLimitStore: Redis). */
  store?: FastifyRateLimitStoreCtor;
}
