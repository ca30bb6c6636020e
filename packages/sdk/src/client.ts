import createClient from 'openapi-fetch';
import type { paths } from './openapi.js';
import { ok } from './answer.js';
import { Conversions } from './conversions.js';
import { Domains } from './domains.js';
import { Links } from './links.js';
import { DEFAULT_RETRIES, retrying, type RetryPolicy } from './retry.js';
import type { Account } from './types.js';

export interface LinkpixOptions {
  /** The linkpix server's address (its APP_URL), such as `https://lpx.example`. */
  url: string;
  /** An API key (`lpx_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** The fetch to send with; globalThis.fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Sends again on a 429 after its Retry-After: how many times (2 by default; 0 never), or that
   * and the most the waits may add up to (30 s by default).
   */
  retries?: number | Partial<RetryPolicy>;
}

/** A client of one linkpix server with one key. */
export class Linkpix {
  readonly links: Links;
  readonly conversions: Conversions;
  readonly domains: Domains;
  /** The account the key belongs to (`get()`): one call that proves the key works. */
  readonly account: { get(): Promise<Account> };

  constructor(options: LinkpixOptions) {
    const policy =
      typeof options.retries === 'number'
        ? { ...DEFAULT_RETRIES, retries: options.retries }
        : { ...DEFAULT_RETRIES, ...options.retries };
    const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    const api = createClient<paths, 'application/json'>({
      baseUrl: options.url.replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
      fetch: retrying(send, policy),
    });
    this.links = new Links(api);
    this.conversions = new Conversions(api);
    this.domains = new Domains(api);
    this.account = { get: async () => (await ok(api.GET('/api/v1/account'))).data };
  }
}
