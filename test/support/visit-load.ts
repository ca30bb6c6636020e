export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** A human visit, as a browser asks: the redirect is not followed. */
export const visit = (url: string) =>
  fetch(url, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA, accept: 'text/html' } });

export interface LoadResult {
  /** Answers by status. */
  statuses: Map<number, number>;
  /** Visits that got no answer at all (refused, reset). */
  failed: number;
  /** When each 302 was answered (ms since the epoch). */
  redirectedAt: number[];
}

export interface LoadOptions {
  /** The URL of visit `i`. */
  url: (i: number) => string;
  concurrency: number;
  /** Stop after this many visits… */
  total?: number;
  /** …or once this instant (ms since the epoch) has passed. */
  until?: number;
  /** Called with each visit's index before it is sent (a test's moment to stop a process). */
  before?: (i: number) => void;
}

/** Visits from `concurrency` workers at once, each after the last; bounded by `total` or `until`. */
export async function visitLoad(options: LoadOptions): Promise<LoadResult> {
  const result: LoadResult = { statuses: new Map(), failed: 0, redirectedAt: [] };
  if (options.total === undefined && options.until === undefined)
    throw new Error('visitLoad needs a total or an until');
  let next = 0;
  const more = () =>
    (options.total === undefined || next < options.total) &&
    (options.until === undefined || Date.now() < options.until);
  const worker = async () => {
    while (more()) {
      const i = next++;
      options.before?.(i);
      try {
        const res = await visit(options.url(i));
        await res.arrayBuffer();
        result.statuses.set(res.status, (result.statuses.get(res.status) ?? 0) + 1);
        if (res.status === 302) result.redirectedAt.push(Date.now());
      } catch {
        result.failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return result;
}
