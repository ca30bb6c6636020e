import * as client from 'openid-client';
import type { SsoClaims } from '../../core/sso/sso-sign-in.ts';

export interface OpenIdConnectOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** APP_URL/login/sso/callback: where the provider sends the browser back. */
  redirectUri: string;
  /** Each request to the provider, discovery included, gives up after this long. */
  timeoutSeconds: number;
}

/** What the browser keeps between leaving for the provider and coming back: checked once, then dropped. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
}

/** The provider could not be reached (discovery, its keys, its token endpoint): try later. */
export class ProviderUnreachableError extends Error {}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/;

/**
 * The authorisation code flow with PKCE, state and nonce, through openid-client (which checks
 * the ID token's signature, issuer, audience, expiry and nonce). The provider's metadata is
 * discovered at the first sign-in, not at start: a provider that is away delays no start, and a
 * failed discovery is tried again at the next sign-in.
 */
export class OpenIdConnect {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(private readonly options: OpenIdConnectOptions) {}

  async start(): Promise<{ url: string; pending: PendingSignIn }> {
    const config = await this.config();
    const pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /**
   * The person the provider signed in, from the callback's query. Throws when the answer is not
   * the one this browser asked for (state, nonce, code verifier) or the ID token does not check;
   * ProviderUnreachableError when the provider could not be reached.
   */
  async finish(query: string, pending: PendingSignIn): Promise<SsoClaims> {
    const config = await this.config();
    const callback = new URL(`${this.options.redirectUri}?${query}`);
    const tokens = await reachable(() =>
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      }),
    );
    const id = tokens.claims();
    if (!id) throw new Error('the provider sent no ID token');
    // Providers that keep the email out of the ID token give it at the userinfo endpoint.
    const claims: Record<string, unknown> =
      typeof id.email === 'string'
        ? id
        : { ...(await reachable(() => client.fetchUserInfo(config, tokens.access_token, id.sub))), ...id };
    return {
      issuer: id.iss,
      subject: id.sub,
      email: typeof claims.email === 'string' ? claims.email : null,
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' ? claims.name : null,
    };
  }

  private config(): Promise<client.Configuration> {
    this.configuration ??= reachable(() =>
      client.discovery(new URL(this.options.issuer), this.options.clientId, this.options.clientSecret, undefined, {
        timeout: this.options.timeoutSeconds,
        // http only for a provider on this machine (config.ts refuses any other).
        ...(LOOPBACK.test(this.options.issuer) ? { execute: [client.allowInsecureRequests] } : {}),
      }),
    ).catch((error: unknown) => {
      this.configuration = null;
      throw error instanceof ProviderUnreachableError
        ? error
        : new ProviderUnreachableError('the OpenID provider could not be discovered', { cause: error });
    });
    return this.configuration;
  }
}

/** A request that did not get an answer (refused, timed out) is the provider's absence, not a refusal. */
async function reachable<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (error instanceof TypeError || name === 'AbortError' || name === 'TimeoutError')
      throw new ProviderUnreachableError('the OpenID provider did not answer', { cause: error });
    throw error;
  }
}
