import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account } from '../../core/accounts/account.ts';
import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import { UnauthenticatedError } from '../../core/shared/errors.ts';
import { isScope, type Role } from '../../core/workspaces/policy.ts';
import type { Actor } from '../../core/workspaces/workspace.ts';
import type { WorkspacesService } from '../../core/workspaces/workspaces-service.ts';

/** The key's person, the key, its scopes, and the person's role in the key's workspace now (null: not a member). */
export interface RequestActor extends Actor {
  role: Role | null;
  /** The key's workspace requires two-factor sign-in and its person has not turned it on. */
  twoFactorMissing: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key's workspace (docs/design/teams.md): every existing route acts in it, as it did in the account. */
    account: Account;
    actor: RequestActor;
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
export function identifyApiKey(scope: FastifyInstance, accounts: AccountsService, workspaces: WorkspacesService): void {
  scope.decorateRequest('account', null as unknown as Account);
  scope.decorateRequest('actor', null as unknown as RequestActor);
  scope.decorateRequest('authFailure', null);
  scope.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) {
      request.authFailure = new UnauthenticatedError();
      return;
    }
    try {
      const { account, key } = await accounts.authenticateKey(token);
      // The standing is read on every request, never cached: a demotion or a removal counts at once.
      const standing = await workspaces.standingOf(account.id, key.userId);
      const role = standing?.role ?? null;
      request.actor = {
        userId: key.userId,
        keyId: key.id,
        scopes: key.scopes?.filter(isScope) ?? null,
        role,
        twoFactorMissing: standing?.twoFactorMissing ?? false,
        home: { workspaceId: account.id, role },
      };
      request.account = account;
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
