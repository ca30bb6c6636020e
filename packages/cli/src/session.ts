import { Linkpix } from '@linkpix/sdk';
import { readLogin } from './config-file.js';
import { AuthError } from './exit-codes.js';

type Env = Record<string, string | undefined>;

/** The server and key to use: LINKPIX_URL and LINKPIX_API_KEY where set, else the login's. */
export function credentials(env: Env): { url: string; apiKey: string } {
  const login = env.LINKPIX_URL && env.LINKPIX_API_KEY ? null : readLogin(env);
  const url = env.LINKPIX_URL || login?.url;
  const apiKey = env.LINKPIX_API_KEY || login?.api_key;
  if (!url || !apiKey)
    throw new AuthError('Not logged in: run `linkpix login`, or set LINKPIX_URL and LINKPIX_API_KEY.');
  return { url, apiKey };
}

export function clientFor(env: Env): Linkpix {
  return new Linkpix(credentials(env));
}
