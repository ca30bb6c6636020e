import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import { noInvalidation, type RedirectInvalidation } from '../redirect/redirect-events.ts';
import { normalizeHostName, type Domain } from './domain.ts';
import { NAME_TAKEN, type DomainStore } from './domain-store.ts';
import type { NameClaims } from './name-claims.ts';
import type { ReservedNames } from './reserved-names.ts';
import { normaliseEmail } from '../accounts/email.ts';
import { CLI_OPERATOR } from '../audit/audit-entry.ts';
import { recordChange, unaudited, type AuditedUnit } from '../audit/record-change.ts';

/** What the operator does with names from the CLI: vouch for a claim, keep a name from everyone. */
export class DomainOperator {
  constructor(
    private readonly store: DomainStore,
    private readonly reserved: ReservedNames,
    private readonly claims: NameClaims,
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
    private readonly invalidation: RedirectInvalidation = noInvalidation,
    /** The verification and its audit entry commit together (docs/design/teams.md); absent: no entry. */
    private readonly unit: AuditedUnit<DomainStore> = unaudited(store),
  ) {}

  /**
   * Verifies a pending claim without looking for its token. When several accounts claim the
   * name, `email` says whose; a name already verified (by another), reserved or the app's own is refused.
   */
  /** `workspaceId`: the claim of that workspace (the CLI's --workspace, checked as the email's); else the email's own. */
  async verify(rawName: string, email?: string, workspaceId?: number): Promise<Domain> {
    const name = this.nameOf(rawName);
    let claims = await this.store.claimsOf(name);
    if (workspaceId !== undefined) {
      claims = claims.filter((c) => c.accountId === workspaceId);
    } else if (email !== undefined) {
      const account = await this.accounts.findByEmail(normaliseEmail(email));
      if (!account) throw new NotFoundError('account');
      claims = claims.filter((c) => c.accountId === account.id);
    }
    const [claim, ...others] = claims;
    if (!claim) throw new NotFoundError('domain');
    if (others.length > 0) {
      throw ValidationError.of('email', `${claims.length} accounts claim ${name}: say whose with --email.`);
    }
    if (claim.verifiedAt !== null) return claim;
    const refusal = await this.claims.refusal(name, claim.accountId, claim.id);
    if (refusal) throw ValidationError.of('name', refusal);
    const now = this.clock.now();
    const verified = await this.unit(async (tx) => {
      const verified = await tx.store.update(claim.accountId, claim.id, { verifiedAt: now }, now);
      if (verified === NAME_TAKEN) throw ValidationError.of('name', messages.taken('name'));
      if (!verified) throw new NotFoundError('domain');
      await recordChange(
        tx.audit,
        { workspaceId: claim.accountId, actor: CLI_OPERATOR, type: 'domain', at: now, verb: 'verified' },
        claim,
        verified,
      );
      return verified;
    });
    this.invalidation.accountChanged(claim.accountId);
    return verified;
  }

  /**
   * Keeps the name from every account from now on: no new claim, no verification. Claims
   * already made stay as they are (a verified one keeps serving); they are listed for the operator.
   */
  async reserve(rawName: string): Promise<{ name: string; newly: boolean; claims: Domain[] }> {
    const name = this.nameOf(rawName);
    const newly = await this.reserved.reserve(name, this.clock.now());
    const claims = await this.store.claimsOf(name);
    this.verifiedChanged(claims);
    return { name, newly, claims };
  }

  async unreserve(rawName: string): Promise<{ name: string; was: boolean }> {
    const name = this.nameOf(rawName);
    const was = await this.reserved.unreserve(name);
    this.verifiedChanged(await this.store.claimsOf(name));
    return { name, was };
  }

  /** A verified name reserved or freed keeps serving, but may or may not have a certificate now (GET /tls/allowed). */
  private verifiedChanged(claims: readonly Domain[]): void {
    for (const claim of claims) if (claim.verifiedAt !== null) this.invalidation.accountChanged(claim.accountId);
  }

  private nameOf(raw: string): string {
    const name = normalizeHostName(raw);
    if (!name) throw ValidationError.of('name', messages.invalid('name'));
    return name;
  }
}
