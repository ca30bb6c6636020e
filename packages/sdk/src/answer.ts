import { errorOf } from './errors.js';

interface Result {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** What an answer carried when the API took the request; the typed error of its refusal otherwise. */
export async function ok<R extends Result>(pending: Promise<R>): Promise<NonNullable<R['data']>> {
  const { data, error, response } = await pending;
  if (!response.ok) throw errorOf(response, error);
  return data as NonNullable<R['data']>;
}

/** An answer's body without the envelope's `status` (which the HTTP status already says). */
export function unwrapped<Body extends { status: unknown }>(
  body: Body,
): Body extends unknown ? Omit<Body, 'status'> : never {
  const { status: _status, ...rest } = body;
  return rest as Body extends unknown ? Omit<Body, 'status'> : never;
}

/**
 * A saved record with the API's `warnings` beside it (docs/api.md §18) as a property that is not
 * enumerable, so that the record compares, spreads and prints as the API's `data` alone.
 */
export function withWarnings<Data extends object, Warning>(body: {
  data: Data;
  warnings?: Warning[];
}): Data & { readonly warnings: Warning[] } {
  return Object.defineProperty(body.data, 'warnings', { value: body.warnings ?? [], enumerable: false }) as Data & {
    readonly warnings: Warning[];
  };
}
