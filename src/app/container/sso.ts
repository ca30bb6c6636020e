import { SsoSignIn, type SsoSignInDeps } from '../../core/sso/sso-sign-in.ts';
import { SsoLinks } from '../../core/sso/sso-links.ts';
import { OpenIdConnect } from '../../adapters/oidc/openid-connect.ts';
import type { SsoServices } from '../../adapters/web/app/web-context.ts';
import type { Config } from '../config.ts';

/** Time each request to the OpenID provider (discovery, token, userinfo) may take. */
const OIDC_TIMEOUT_SECONDS = 10;

/** Single sign-on through OIDC_ISSUER (docs/design/teams.md); null when it is not set. */
export function ssoOf(
  config: Config,
  deps: Pick<SsoSignInDeps, 'identities' | 'accounts' | 'twoStep' | 'clock'>,
): SsoServices | null {
  if (config.OIDC_ISSUER === null) return null;
  const provider = new OpenIdConnect({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    redirectUri: `${config.APP_URL}/login/sso/callback`,
    timeoutSeconds: OIDC_TIMEOUT_SECONDS,
  });
  const signIn = new SsoSignIn({ ...deps, signup: config.SIGNUP, allowedDomains: config.OIDC_ALLOWED_DOMAINS });
  const links = new SsoLinks({
    identities: deps.identities,
    allowedDomains: config.OIDC_ALLOWED_DOMAINS,
    clock: deps.clock,
  });
  return { name: config.OIDC_NAME, provider, signIn, links };
}
