import { retryAfterMs } from './errors.js';

/** How long the client may keep a request waiting for the server's permission to send it again. */
export interface RetryPolicy {
  /** Sends after the first: 0 never retries. */
  retries: number;
  /** The most all waits of one request may add up to; a Retry-After past it is given up at once. */
  maxWaitMs: number;
}

export const DEFAULT_RETRIES: RetryPolicy = { retries: 2, maxWaitMs: 30_000 };

// A 503 (the database away, the server stopping) is retried only where a second send cannot
// do a thing twice; a 429 is always: the server refused it before doing anything.
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Without a Retry-After, a 429 or 503 is tried again after this. */
const DEFAULT_WAIT_MS = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `fetch`, sending again on a 429 (or a 503 of an idempotent method) when and while the policy allows. */
export function retrying(
  fetch: (request: Request) => Promise<Response>,
  policy: RetryPolicy,
  wait: (ms: number) => Promise<void> = sleep,
): (request: Request) => Promise<Response> {
  return async (request) => {
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= policy.retries;
      const response = await fetch(last ? request : request.clone());
      if (last || !retriable(request.method, response.status)) return response;
      const ms = retryAfterMs(response.headers.get('retry-after'), Date.now()) ?? DEFAULT_WAIT_MS;
      if (waited + ms > policy.maxWaitMs) return response;
      await response.body?.cancel();
      await wait(ms);
      waited += ms;
    }
  };
}

function retriable(method: string, status: number): boolean {
  return status === 429 || (status === 503 && IDEMPOTENT.has(method.toUpperCase()));
}
