import { NotFoundError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import { noUnitOfWork, type UnitOfWork } from '../shared/unit-of-work.ts';
import type { RedirectInvalidation } from '../redirect/redirect-events.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import type { LinkView } from './link.ts';
import { tagLinks, type LinkChangePorts } from './links-service.ts';
import type { LinkHistory, LinkVersion } from './link-history.ts';
import { LinkViews } from './link-views.ts';
import { auditLinks } from './link-audit.ts';
import { restoredFields, restoredTagNames, versionNotFound } from './link-restore.ts';

export interface LinkHistoryDeps extends LinkChangePorts {
  /** The history read outside a change (the list, the version a restore starts from). */
  history: LinkHistory;
  clock: Clock;
  unitOfWork?: UnitOfWork<LinkChangePorts>;
  invalidation?: RedirectInvalidation;
}

/** A link's versions, and a restore of one of them as the link's next version (docs/design/history.md). */
export class LinkHistoryService {
  private readonly unit: UnitOfWork<LinkChangePorts>;

  constructor(private readonly deps: LinkHistoryDeps) {
    this.unit = deps.unitOfWork ?? noUnitOfWork<LinkChangePorts>(deps);
  }

  /** Newest first; a link of another workspace, or deleted, is not found. */
  async list(accountId: number, linkId: number, page: PageRequest): Promise<Page<LinkVersion>> {
    await this.require(accountId, linkId);
    return this.deps.history.list(accountId, linkId, page);
  }

  /** One version of the link (null: no such version, or not the workspace's link). */
  async version(accountId: number, linkId: number, version: number): Promise<LinkVersion | null> {
    await this.require(accountId, linkId);
    return this.deps.history.find(accountId, linkId, version);
  }

  /**
   * Puts the link back as it stood right after `version`, as a new version `via: "restore"`
   * with its `link.updated` event: a taken alias is a 422 naming `alias`, a takedown stays.
   */
  async restore(accountId: number, linkId: number, version: number, actor: AuditActor): Promise<LinkView> {
    const existing = await this.require(accountId, linkId);
    const from = (await this.deps.history.find(accountId, linkId, version)) ?? versionNotFound();
    const { fields, pixelIds } = await restoredFields(this.deps, existing, from.state);
    const now = this.deps.clock.now();
    const view = await this.unit(async (tx) => {
      const link = await tx.links.update(accountId, linkId, fields, pixelIds, now);
      if (!link) throw new NotFoundError('link');
      await tagLinks(tx.tags, accountId, [linkId], await restoredTagNames(tx, accountId, from.state), now);
      const view = (await new LinkViews(tx).of(accountId, [link]))[0]!;
      await tx.onEvent?.changed(accountId, 'link.updated', [{ link, view }]);
      const restorer: AuditActor = { ...actor, via: 'restore' };
      await auditLinks(tx, accountId, restorer, 'link.updated', [{ before: existing, after: link }], now, version);
      return view;
    });
    this.deps.invalidation?.linkChanged(linkId, view.link.alias);
    return view;
  }

  private async require(accountId: number, linkId: number) {
    const link = await this.deps.links.findById(accountId, linkId);
    if (!link) throw new NotFoundError('link');
    return link;
  }
}
