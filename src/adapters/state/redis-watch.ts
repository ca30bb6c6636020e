import type { Redis } from 'ioredis';
import { UnavailableError } from '../../core/shared/errors.ts';
import type { OutageReporter } from '../shared/outage-reporter.ts';

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** True for the errors ioredis gives while it has no connection (as opposed to a bad command). */
function isRedisConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  return (
    error.name === 'MaxRetriesPerRequestError' || /^(Connection is closed|Stream isn't writeable)/.test(error.message)
  );
}

/**
 * Gives a client the 'error' listener every EventEmitter needs (without one, ioredis prints
 * each failed reconnection), and tells the reporter when the connection goes and comes back.
 * ioredis reconnects by itself and replays subscriptions, so nothing else is done here.
 */
export function watchRedis(client: Redis, outage: OutageReporter): void {
  client.on('error', (error: unknown) => outage.failed(error));
  client.on('ready', () => outage.recovered());
}

/**
 * An onError for things that use Redis: failures while it is away go to the outage (reported
 * once); anything else is a real fault and goes to onError.
 */
export function redisErrors(outage: OutageReporter, onError: (error: unknown) => void): (error: unknown) => void {
  return (error) => (isRedisConnectionError(error) ? outage.failed(error) : onError(error));
}

/**
 * A Redis command's result, with the failure of an absent Redis as UnavailableError (answered
 * 503, and not logged per request: the outage is told once by watchRedis).
 */
export function orUnavailable<T>(command: Promise<T>): Promise<T> {
  return command.catch(toUnavailable);
}

/** orUnavailable's mapping, for a `.then(…, toUnavailable)` that needs no promise more. */
export function toUnavailable(error: unknown): never {
  throw asUnavailable(error);
}

/** The failure a command's caller gets: UnavailableError for an absent Redis, the error itself otherwise. */
export function asUnavailable(error: unknown): unknown {
  return isRedisConnectionError(error) ? new UnavailableError('shared store (Redis)', { cause: error }) : error;
}
