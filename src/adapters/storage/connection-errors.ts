import { UnavailableError } from '../../core/shared/errors.ts';

// Server codes that mean the session is gone or cannot start (admin shutdown, crash shutdown,
// cannot connect now) and the whole class 08 (connection exceptions). Anything else — a
// constraint, a deadlock, a syntax error — is the query's own failure and stays as it is.
const SESSION_CODES = new Set(['57P01', '57P02', '57P03']);
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
// pg reports a socket that ended or a pool that timed out waiting for one only in the message.
const LOST_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/** True when an error says the database could not be reached, not that the query was wrong. */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof UnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SESSION_CODES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code)))
    return true;
  if (LOST_MESSAGES.test(error.message)) return true;
  // Node reports a refused connection to a host with several addresses as one AggregateError.
  return error instanceof AggregateError && error.errors.some(isConnectionError);
}

/** The error a store's caller sees: UnavailableError for a lost database, else the error itself. */
export function translateConnectionError(error: unknown): unknown {
  if (error instanceof UnavailableError || !isConnectionError(error)) return error;
  return new UnavailableError('database', { cause: error });
}
