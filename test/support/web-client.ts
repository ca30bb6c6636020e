import { randomBytes } from 'node:crypto';
import qs from 'qs';

export interface WebReply {
  status: number;
  headers: Headers;
  text: string;
  /** The Location header, for 303s. */
  location: string | null;
}

/**
 * A browser without a browser: keeps cookies, reads each form's CSRF token from the page it came
 * from, posts forms as a browser does (urlencoded, bracket names), and never follows redirects.
 */
export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<WebReply> {
    return this.send('GET', path, undefined, headers);
  }

  /** Posts a form. `_csrf` is taken from `from` (a page to GET first) unless the form has one. */
  async post(
    path: string,
    form: Record<string, unknown>,
    options: { from?: string; headers?: Record<string, string> } = {},
  ): Promise<WebReply> {
    const body = { ...form };
    if (!('_csrf' in body)) body._csrf = await this.csrf(options.from ?? path);
    return this.send('POST', path, qs.stringify(body, { encodeValuesOnly: true }), {
      'content-type': 'application/x-www-form-urlencoded',
      ...options.headers,
    });
  }

  /** The CSRF token of the first form on a page. */
  async csrf(path: string): Promise<string> {
    const page = await this.get(path);
    return csrfOf(page.text);
  }

  async send(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ): Promise<WebReply> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.baseUrl + path, {
      method,
      body,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...headers },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
  }
}

export function csrfOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1]!;
}

export const PASSWORD = 'correct horse battery';

/** A new account made through /signup, signed in, with its client. */
export async function signedUp(
  baseUrl: string,
  email = `web-${randomBytes(4).toString('hex')}@example.com`,
): Promise<{ client: WebClient; email: string }> {
  const client = new WebClient(baseUrl);
  const reply = await client.post('/signup', { name: 'Web User', email, password: PASSWORD }, { from: '/signup' });
  if (reply.status !== 303) throw new Error(`sign-up failed: ${reply.status} ${reply.text.slice(0, 500)}`);
  return { client, email };
}
