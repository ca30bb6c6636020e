import { DurationHistogram, REDIRECT_BUCKETS } from './duration-histogram.ts';

// Status codes are three digits: an array indexed by the code is the cheapest counter there is.
const STATUS_SLOTS = 600;

/**
 * What the redirect's fast path counts (docs/design/observability.md): answers by status and their
 * latency, in plain numbers incremented inline — no label lookup, no prom-client call on a visit.
 * The route door (Fastify) is counted by the request hook into `route`.
 */
export class RedirectMeter {
  /** Answers of the fast path by status code. */
  readonly fastStatuses = new Float64Array(STATUS_SLOTS);
  readonly fast = new DurationHistogram(REDIRECT_BUCKETS);
  /** GET and HEAD /{alias} answered through Fastify's route (a cache miss, a page, a password form). */
  readonly route = new DurationHistogram(REDIRECT_BUCKETS);

  /** A fast-path answer with this status, `started` being performance.now() when its request was taken. */
  answered(started: number, status: number): void {
    this.fast.observe(performance.now() - started);
    if (status < STATUS_SLOTS) this.fastStatuses[status]! += 1;
  }

  /** Fast-path answers so far: every one came from the link cache without a database read. */
  get fastAnswers(): number {
    return this.fast.count;
  }
}
