/** The API refused a request: its HTTP status and the body it answered, as sent. */
export class LinkpixError extends Error {
  override name = 'LinkpixError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    message = messageOf(status, body),
  ) {
    super(message);
  }
}

/** A 422: the fields the API named, by its own names (`url`, `tags`, `rules.1.url`), each with its messages. */
export class LinkpixValidationError extends LinkpixError {
  override name = 'LinkpixValidationError';
  constructor(
    body: unknown,
    readonly fields: Record<string, string[]>,
  ) {
    super(422, body);
  }
}

/** A 429 the retries did not outlast: `retryAfter` is the seconds the server asked to wait, or null. */
export class LinkpixRateLimitError extends LinkpixError {
  override name = 'LinkpixRateLimitError';
  constructor(
    body: unknown,
    readonly retryAfter: number | null,
  ) {
    super(429, body);
  }
}

/** The error a refused answer stands for; `body` is what it carried (JSON, else text). */
export function errorOf(response: Response, body: unknown): LinkpixError {
  const message = (body as { message?: unknown } | null)?.message;
  if (response.status === 422 && isFieldMap(message)) return new LinkpixValidationError(body, message);
  if (response.status === 429) {
    const ms = retryAfterMs(response.headers.get('retry-after'), Date.now());
    return new LinkpixRateLimitError(body, ms === null ? null : Math.ceil(ms / 1000));
  }
  return new LinkpixError(response.status, body);
}

/** Retry-After in milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function isFieldMap(value: unknown): value is Record<string, string[]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((list) => Array.isArray(list) && list.every((m) => typeof m === 'string'))
  );
}

function messageOf(status: number, body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message;
  if (isFieldMap(message))
    return Object.entries(message)
      .map(([field, list]) => `${field}: ${list.join(' ')}`)
      .join('\n');
  return `The API answered ${status}.`;
}
