import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account } from '../../core/accounts/account.ts';
import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import { UnauthenticatedError } from '../../core/shared/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Every route in the scope needs a live key; the answer to any doubt is a 401, never a redirect. */
export function requireApiKey(scope: FastifyInstance, accounts: AccountsService): void {
  scope.decorateRequest('account', null as unknown as Account);
  scope.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new UnauthenticatedError();
    request.account = await accounts.authenticate(token);
  });
}
