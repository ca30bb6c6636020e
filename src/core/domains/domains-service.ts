import { FieldErrorBag, NotFoundError, ValidationError, faultsOfCheck, type FieldErrors } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import { noInvalidation, type RedirectInvalidation } from '../redirect/redirect-events.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UrlPolicy } from '../links/url-policy.ts';
import { normalizeHostName, type Domain, type DomainInput } from './domain.ts';
import {
  NAME_TAKEN,
  type DomainClaim,
  type DomainFields,
  type DomainFilter,
  type DomainStore,
} from './domain-store.ts';
import type { NameClaims } from './name-claims.ts';
import type { VerificationPolicy } from './ownership-check.ts';
import { newVerificationToken, verificationOf } from './verification.ts';
import { checkAppleAppSiteAssociation, checkAssetLinks } from './app-site-files.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import { recordChange, unaudited, type AuditedUnit } from '../audit/record-change.ts';

export interface DomainsServiceDeps {
  store: DomainStore;
  clock: Clock;
  urls: UrlPolicy;
  claims: NameClaims;
  verification: VerificationPolicy;
  /** Which host answers for which links lives in the redirect cache. */
  invalidation?: RedirectInvalidation;
  /** A change and its audit entry commit together (docs/design/teams.md); absent: no entries. */
  unit?: AuditedUnit<DomainStore>;
}

/** An account's custom domains: claimed pending, serving once control of the name is proved. */
export class DomainsService {
  private readonly store: DomainStore;
  private readonly invalidation: RedirectInvalidation;
  private readonly unit: AuditedUnit<DomainStore>;

  constructor(private readonly deps: DomainsServiceDeps) {
    this.store = deps.store;
    this.unit = deps.unit ?? unaudited(deps.store);
    this.invalidation = deps.invalidation ?? noInvalidation;
  }

  list(accountId: number, filter: DomainFilter, page: PageRequest): Promise<Page<Domain>> {
    return this.store.list(accountId, filter, page);
  }

  async get(accountId: number, id: number): Promise<Domain> {
    const domain = await this.store.findById(accountId, id);
    if (!domain) throw new NotFoundError('domain');
    return domain;
  }

  async create(accountId: number, input: DomainInput, actor: AuditActor): Promise<Domain> {
    const fields = await this.check(accountId, input, null);
    const now = this.deps.clock.now();
    const domain = await this.unit(async (tx) => {
      const domain = await tx.store.insert(
        accountId,
        {
          indexPage: null,
          notFoundPage: null,
          appleAppSiteAssociation: null,
          assetLinks: null,
          ...fields,
          ...this.newClaim(now),
        } as DomainFields & DomainClaim,
        now,
      );
      if (domain === NAME_TAKEN) throw ValidationError.of('name', messages.taken('name'));
      await recordChange(tx.audit, { workspaceId: accountId, actor, type: 'domain', at: now }, null, domain);
      return domain;
    });
    this.invalidation.accountChanged(accountId);
    return domain;
  }

  async update(accountId: number, id: number, input: DomainInput, actor: AuditActor): Promise<Domain> {
    const current = await this.get(accountId, id);
    const fields: Partial<DomainFields & DomainClaim> = await this.check(accountId, input, current);
    const now = this.deps.clock.now();
    // Control of the old name proves nothing about the new one.
    if (fields.name !== undefined && fields.name !== current.name) Object.assign(fields, this.newClaim(now));
    const domain = await this.unit(async (tx) => {
      const domain = await tx.store.update(accountId, id, fields, now);
      if (domain === NAME_TAKEN) throw ValidationError.of('name', messages.taken('name'));
      if (!domain) throw new NotFoundError('domain');
      await recordChange(tx.audit, { workspaceId: accountId, actor, type: 'domain', at: now }, current, domain);
      return domain;
    });
    this.invalidation.accountChanged(accountId);
    return domain;
  }

  async delete(accountId: number, id: number, actor: AuditActor): Promise<void> {
    const now = this.deps.clock.now();
    await this.unit(async (tx) => {
      const before = await tx.store.findById(accountId, id);
      if (!before || !(await tx.store.delete(accountId, id))) throw new NotFoundError('domain');
      await recordChange(tx.audit, { workspaceId: accountId, actor, type: 'domain', at: now }, before, null);
    });
    this.invalidation.accountChanged(accountId);
  }

  /**
   * Looks for the domain's token in DNS and over HTTP and, when either holds it, makes the domain
   * serve. A verified domain stays so; a name someone else verified first, or one the operator
   * reserved meanwhile, cannot be verified (its claim stays pending, links and all).
   */
  async verify(accountId: number, id: number, actor: AuditActor): Promise<Domain> {
    const domain = await this.get(accountId, id);
    if (domain.verifiedAt !== null) return domain;
    const refusal = await this.deps.claims.refusal(domain.name, accountId, id);
    if (refusal) throw ValidationError.of('name', refusal);
    if (this.deps.verification.required) await this.prove(domain);
    const now = this.deps.clock.now();
    const verified = await this.unit(async (tx) => {
      const verified = await tx.store.update(accountId, id, { verifiedAt: now }, now);
      if (verified === NAME_TAKEN) throw ValidationError.of('name', messages.taken('name'));
      if (!verified) throw new NotFoundError('domain');
      await recordChange(
        tx.audit,
        { workspaceId: accountId, actor, type: 'domain', at: now, verb: 'verified' },
        domain,
        verified,
      );
      return verified;
    });
    this.invalidation.accountChanged(accountId);
    return verified;
  }

  /** The rule violations of an input, without writing; for an update, 404 first if the record is not the account's. */
  async faultsOf(accountId: number, input: DomainInput, id?: number): Promise<FieldErrors> {
    const current = id === undefined ? null : await this.get(accountId, id);
    return faultsOfCheck(() => this.check(accountId, input, current));
  }

  /** With DOMAIN_VERIFICATION off, whoever adds a name is trusted with it at once. */
  private newClaim(now: number): DomainClaim {
    return { verificationToken: newVerificationToken(), verifiedAt: this.deps.verification.required ? null : now };
  }

  private async prove(domain: Domain): Promise<void> {
    const target = verificationOf(domain);
    const checks = this.deps.verification.checks;
    const results = await Promise.all(checks.map((c) => c.check(target)));
    if (results.some((r) => r.found)) return;
    throw new ValidationError({
      verification: checks.map((c, i) => {
        const r = results[i]!;
        return `Did not find ${c.describe(target)}: ${r.found ? '' : r.reason}.`;
      }),
    });
  }

  /** `current` is the record being updated, null when creating. */
  private async check(accountId: number, input: DomainInput, current: Domain | null): Promise<Partial<DomainFields>> {
    const bag = new FieldErrorBag();
    const fields: Partial<DomainFields> = {};
    if (input.name !== undefined || current === null) {
      const name = input.name ? normalizeHostName(input.name) : null;
      if (!input.name) bag.add('name', messages.required('name'));
      else if (!name) bag.add('name', messages.invalid('name'));
      else if (name === current?.name)
        fields.name = name; // resent unchanged: kept whatever was reserved since
      else {
        const refusal = await this.deps.claims.refusal(name, accountId, current?.id);
        if (refusal) bag.add('name', refusal);
        else fields.name = name;
      }
    }
    const indexPage = this.deps.urls.checkOptional(bag, 'index_page', input.index_page);
    if (indexPage !== undefined) fields.indexPage = indexPage;
    const notFoundPage = this.deps.urls.checkOptional(bag, 'not_found_page', input.not_found_page);
    if (notFoundPage !== undefined) fields.notFoundPage = notFoundPage;
    const association = checkAppleAppSiteAssociation(
      bag,
      'apple_app_site_association',
      input.apple_app_site_association,
    );
    if (association !== undefined) fields.appleAppSiteAssociation = association;
    const assetLinks = checkAssetLinks(bag, 'assetlinks', input.assetlinks);
    if (assetLinks !== undefined) fields.assetLinks = assetLinks;
    bag.throwIfAny();
    return fields;
  }
}
