import { LINGER_MS } from '../shared/request/lingering-close.ts';

/**
 * How far before node:http's requestTimeout an import's upload window ends: the route's own 408
 * and the lingering close after it (LINGER_MS) both finish before node:http would cut the
 * request (its raw 408, or a socket destroyed mid-linger), with a second for the time between
 * the request's start and the route's, and node:http's check interval (docs/design/imports.md).
 */
export const UPLOAD_DEADLINE_MARGIN_MS = LINGER_MS + 1000;

/**
 * How long an import's form has to arrive once the route has it: the request timeout less the
 * margin, and at least half of it (a short timeout keeps a usable window). 0: no request
 * timeout, so none of the route's own either.
 */
export function uploadWindowMs(requestTimeoutMs: number): number {
  if (requestTimeoutMs <= 0) return 0;
  return Math.max(requestTimeoutMs - UPLOAD_DEADLINE_MARGIN_MS, Math.ceil(requestTimeoutMs / 2));
}
