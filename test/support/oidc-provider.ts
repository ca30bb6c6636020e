import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** What the provider says about a person: changed by a test between sign-ins. */
export interface ProviderPerson {
  email: string;
  email_verified: boolean;
  name: string;
}

export const CLIENT = { id: 'linkpix-test', secret: 'a-client-secret-for-the-tests' };

/**
 * An OpenID provider on 127.0.0.1 (oidc-provider, its development sign-in pages): whoever types a
 * subject at its login form is that person. No DNS, no network beyond this machine.
 */
export class TestProvider {
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    /** Subject → what the provider says about that person. */
    readonly people: Map<string, ProviderPerson>,
  ) {}

  static async start(redirectUri: string): Promise<TestProvider> {
    const people = new Map<string, ProviderPerson>();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: async (_ctx, sub) => {
        const person = people.get(sub);
        return person ? { accountId: sub, claims: () => ({ sub, ...person }) } : undefined;
      },
    });
    server.on('request', provider.callback());
    return new TestProvider(server, issuer, people);
  }

  /**
   * A browser at the provider: follows its redirects from the authorisation URL, signs in as
   * `subject` and consents, and returns the path and query linkpix's callback is sent to.
   */
  async signIn(authorisationUrl: string, subject: string, appUrl: string): Promise<string> {
    const cookies = new Map<string, string>();
    const send = async (url: string, form?: Record<string, string>) => {
      const res = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      for (const line of res.headers.getSetCookie()) {
        const pair = line.split(';')[0]!;
        cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return { status: res.status, location: res.headers.get('location'), text: await res.text() };
    };
    let url = authorisationUrl;
    let form: Record<string, string> | undefined;
    for (let hop = 0; hop < 12; hop++) {
      const res = await send(url, form);
      form = undefined;
      if (res.location) {
        const next = new URL(res.location, url).href;
        if (next.startsWith(`${appUrl}/`)) return next.slice(appUrl.length);
        url = next;
        continue;
      }
      const prompt = /name="prompt" value="(login|consent)"/.exec(res.text)?.[1];
      if (res.status !== 200 || !prompt)
        throw new Error(`the provider answered ${res.status}: ${res.text.slice(0, 300)}`);
      form = prompt === 'login' ? { prompt, login: subject, password: 'any' } : { prompt };
    }
    throw new Error('the provider never sent the browser back');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
