// The part of oidc-provider (which ships no types) the test provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ProviderAccount {
    accountId: string;
    claims(): Record<string, unknown>;
  }

  export interface ProviderConfiguration {
    clients: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    findAccount(ctx: unknown, sub: string): Promise<ProviderAccount | undefined>;
    pkce?: { required?: () => boolean };
    features?: Record<string, unknown>;
    cookies?: Record<string, unknown>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
