import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account } from '../../core/accounts/account.ts';
import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import { UnauthenticatedError } from '../../core/shared/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account;
    /** Set by identifyApiKey when the request carries no live key (or the lookup failed). */
    authFailure: Error | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * Looks the key up without refusing yet: the rate limit runs between this and requireApiKey,
 * so that it can tell a live key (counted on its own) from a failed one (counted against the
 * client's address, whatever token it tried).
 */
export function identifyApiKey(scope: FastifyInstance, accounts: AccountsService): void {
  scope.decorateRequest('account', null as unknown as Account);
  scope.decorateRequest('authFailure', null);
  scope.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) {
      request.authFailure = new UnauthenticatedError();
      return;
    }
    try {
      request.account = await accounts.authenticate(token);
    } catch (error) {
      // authenticate() rejects with the core's errors; anything else is wrapped, never lost.
      request.authFailure = error instanceof Error ? error : new Error('authentication failed', { cause: error });
    }
  });
}

/** Every route in the scope needs a live key; the answer to any doubt is a 401, never a redirect. */
export function requireApiKey(scope: FastifyInstance): void {
  scope.addHook('onRequest', async (request) => {
    if (request.authFailure !== null) throw request.authFailure;
  });
}

/** True once identifyApiKey has found a live key for the request. */
export function isAuthenticated(request: FastifyRequest): boolean {
  return request.authFailure === null && request.account !== null;
}
