export interface EventuallyOptions {
  /** How long the condition has to come true. */
  timeoutMs?: number;
  /** The pause between two checks. */
  everyMs?: number;
  /** More to say when it never does (a server's output, say). */
  explain?: () => string;
}

/**
 * Checks `condition` until it holds, for what happens in the background (clicks written in
 * batches, a webhook delivered, a reconnect); answers how long that took, in ms. Fails after
 * `timeoutMs`, naming `what`.
 */
export async function eventually(
  what: string,
  condition: () => boolean | Promise<boolean>,
  options: EventuallyOptions = {},
): Promise<number> {
  const { timeoutMs = 8000, everyMs = 25, explain } = options;
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`never happened within ${timeoutMs} ms: ${what}${explain ? `\n${explain()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return Date.now() - started;
}
