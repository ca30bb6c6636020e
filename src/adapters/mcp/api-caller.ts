import type { FastifyInstance } from 'fastify';

/** One call of an API route on behalf of the MCP client. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT';
  /** The path with its parameters filled in, without a query. */
  path: string;
  query: Record<string, unknown>;
  /** The JSON body of a POST or PUT. */
  body: Record<string, unknown> | undefined;
}

/** The API's answer: its status and body as sent. */
export interface ApiAnswer {
  status: number;
  contentType: string;
  body: string;
  retryAfter: string | undefined;
}

export type ApiCaller = (call: ApiCall) => Promise<ApiAnswer>;

/** The query string of a call: lists as repeated names, nulls left out. */
function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of [value].flat())
      if (one !== undefined && one !== null)
        // Numbers and booleans as JSON writes them (5, true); text as it is.
        params.append(name, typeof one === 'string' ? one : JSON.stringify(one));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Calls the API in-process, through the app's own router, with the MCP request's Authorization
 * header: every tool meets its route's key lookup, rate limit, policy and validation exactly
 * as a client of the API would (docs/design/mcp.md).
 */
export function injectCaller(app: FastifyInstance, authorization: string): ApiCaller {
  return async (call) => {
    const res = await app.inject({
      method: call.method,
      url: call.path + queryString(call.query),
      headers: {
        authorization,
        accept: 'application/json',
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
    });
    const retryAfter = res.headers['retry-after'];
    return {
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      body: res.body,
      retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
    };
  };
}
