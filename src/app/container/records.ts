import type { AccountStore } from '../../core/accounts/account-store.ts';
import { PixelsService } from '../../core/pixels/pixels-service.ts';
import { SpacesService } from '../../core/spaces/spaces-service.ts';
import { TagsService } from '../../core/tags/tags-service.ts';
import { UtmTemplatesService } from '../../core/utm/utm-templates-service.ts';
import { DomainsService } from '../../core/domains/domains-service.ts';
import { DomainOperator } from '../../core/domains/domain-operator.ts';
import { NameClaims } from '../../core/domains/name-claims.ts';
import type { DomainOwnershipCheck } from '../../core/domains/ownership-check.ts';
import type { UrlPolicy } from '../../core/links/url-policy.ts';
import { DnsTxtCheck } from '../../adapters/domain-ownership/dns-txt-check.ts';
import { HttpFileCheck } from '../../adapters/domain-ownership/http-file-check.ts';
import { unitOfWorkOn } from '../../adapters/storage/transactions.ts';
import { SqlPixelStore } from '../../adapters/storage/stores/pixel-store.ts';
import { SqlSpaceStore } from '../../adapters/storage/stores/space-store.ts';
import { SqlTagStore } from '../../adapters/storage/stores/tag-store.ts';
import { SqlUtmTemplateStore } from '../../adapters/storage/stores/utm-template-store.ts';
import { SqlDomainStore } from '../../adapters/storage/stores/domain-store.ts';
import { SqlReservedNames } from '../../adapters/storage/stores/reserved-names-store.ts';
import { SqlAuditLog } from '../../adapters/storage/stores/audit-store.ts';
import type { Base, Records } from './base.ts';

/** What a workspace keeps beside its links: pixels, spaces, tags, UTM templates; each change audited in its unit. */
export function recordServices(base: Base, stores: Records) {
  const { storage, clock, visits } = base;
  const audited = <S>(storeOn: (db: typeof storage.db) => S) =>
    unitOfWorkOn(storage.db, (trx) => ({ store: storeOn(trx), audit: new SqlAuditLog(trx) }));
  return {
    pixels: new PixelsService(
      stores.pixels,
      clock,
      visits.invalidation,
      audited((db) => new SqlPixelStore(db)),
    ),
    spaces: new SpacesService(
      stores.spaces,
      clock,
      audited((db) => new SqlSpaceStore(db)),
    ),
    tags: new TagsService(
      stores.tags,
      clock,
      audited((db) => new SqlTagStore(db)),
    ),
    utmTemplates: new UtmTemplatesService(
      new SqlUtmTemplateStore(storage.db),
      clock,
      audited((db) => new SqlUtmTemplateStore(db)),
    ),
  };
}

/** Custom domains: the accounts' claims and checks (the API, the web app) and the operator's side (the CLI). */
export function domainServices(
  base: Base,
  deps: { stores: Records; urls: UrlPolicy; accounts: AccountStore; checks?: readonly DomainOwnershipCheck[] },
) {
  const { config, tuning, storage, clock, visits } = base;
  const { domains } = deps.stores;
  const reservedNames = new SqlReservedNames(storage.db);
  const claims = new NameClaims(domains, reservedNames, [...visits.appHosts]);
  const timeoutMs = tuning.DOMAIN_VERIFICATION_TIMEOUT_MS;
  const checks = deps.checks ?? [
    new DnsTxtCheck({ timeoutMs }),
    new HttpFileCheck({ timeoutMs, allowPrivate: config.OUTBOUND_ALLOW_PRIVATE }),
  ];
  const unit = unitOfWorkOn(storage.db, (trx) => ({ store: new SqlDomainStore(trx), audit: new SqlAuditLog(trx) }));
  return {
    domains: new DomainsService({
      store: domains,
      unit,
      clock,
      urls: deps.urls,
      claims,
      invalidation: visits.invalidation,
      verification: { required: config.DOMAIN_VERIFICATION === 'on', checks },
    }),
    domainOperator: new DomainOperator(domains, reservedNames, claims, deps.accounts, clock, visits.invalidation, unit),
  };
}
