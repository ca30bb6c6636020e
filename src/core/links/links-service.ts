import { FieldErrorBag, NotFoundError, ValidationError, faultsOfCheck, type FieldErrors } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import type { RedirectInvalidation } from '../redirect/redirect-events.ts';
import type { CountRequest, Page, PageRequest } from '../shared/page.ts';
import { hashPassword } from '../shared/secrets.ts';
import type { SpaceStore } from '../spaces/space-store.ts';
import type { DomainStore } from '../domains/domain-store.ts';
import type { PixelStore } from '../pixels/pixel-store.ts';
import type { TagStore } from '../tags/tag-store.ts';
import { isReservedAlias, randomAlias } from './aliases.ts';
import type { Link, LinkFields, LinkFilter, LinkView } from './link.ts';
import { LINK_LIMITS, type LinkInput } from './link-input.ts';
import { checkLinkInput, type CheckedLinkInput } from './link-rules.ts';
import type { LinkStore } from './link-store.ts';
import type { TitleFetcher } from './title-fetcher.ts';
import type { UrlPolicy } from './url-policy.ts';
import { LinkViews } from './link-views.ts';
import { PRIVATE_STATS, newLinkFields, type DefaultStatsPrivacy } from './new-link-fields.ts';
import { targetedChunks, type BulkChange, type BulkTarget } from './link-bulk.ts';
import type { LinkEventListener } from './link-events.ts';
import { noUnitOfWork, type UnitOfWork } from '../shared/unit-of-work.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import type { AuditLog } from '../audit/audit-store.ts';
import { auditLinks, recordsChanges } from './link-audit.ts';
import type { LinkHistory } from './link-history.ts';
import type { LinkSchedules } from './link-schedules.ts';

export interface LinksServiceDeps {
  links: LinkStore;
  spaces: SpaceStore;
  domains: DomainStore;
  pixels: PixelStore;
  /** absent: links carry no tags (in-memory stores); `tags` in an input is then refused. */
  tags?: TagStore;
  clock: Clock;
  urls: UrlPolicy;
  /** null: titles are only what clients send. */
  titles: TitleFetcher | null;
  /** Keeps the redirect's cache and click quotas in step with writes. */
  invalidation?: RedirectInvalidation;
  /** A deleted link's exact click counter can go (a changed cap needs nothing: the count stands). */
  forgetQuota?: (linkId: number) => Promise<void>;
  /** Told of every change in the change's unit of work (webhooks): its failure fails the change. */
  onEvent?: LinkEventListener;
  /** A change and what onEvent stores for it commit together; absent: the ports above, each write on its own (in-memory stores). */
  unitOfWork?: UnitOfWork<LinkChangePorts>;
  /** The statistics privacy of a link made without one (DEFAULT_STATS_PRIVACY); absent: private. */
  defaultPrivacy?: DefaultStatsPrivacy;
}

/** What a link change reads and writes in its unit of work: the links, the records of their views, and the event. */
export interface LinkChangePorts {
  links: LinkStore;
  spaces: SpaceStore;
  domains: DomainStore;
  pixels: PixelStore;
  tags?: TagStore | undefined;
  onEvent?: LinkEventListener | undefined;
  /** The audit log on the unit's transaction: each change's entry commits with it (absent: in-memory stores keep none). */
  audit?: AuditLog | undefined;
  /** The links' history on the unit's transaction: each change's version commits with it (docs/design/history.md). */
  history?: LinkHistory | undefined;
  /** The scheduled changes on the unit's transaction: a schedule's claim commits with the change it applies. */
  schedules?: LinkSchedules | undefined;
}

const ALIAS_LENGTH = 7;

/** Gives links these tags (names; new ones created), replacing theirs; undefined names: left as they are. */
export async function tagLinks(
  tags: TagStore | undefined,
  accountId: number,
  linkIds: readonly number[],
  names: readonly string[] | undefined,
  now: number,
): Promise<void> {
  if (names === undefined || !tags) return;
  const found = await tags.ensure(accountId, names, now);
  await tags.setLinkTags(
    accountId,
    linkIds,
    found.map((t) => t.id),
  );
}

function fieldsOf(change: Extract<BulkChange, { kind: 'move' | 'enable' | 'disable' }>): Partial<LinkFields> {
  if (change.kind === 'move') return { spaceId: change.spaceId };
  return { disabled: change.kind === 'disable' ? 1 : 0 };
}

const BLOCKED_MESSAGE = 'The link was disabled by the operator of this service and cannot be enabled.';

export class LinksService {
  private readonly views: LinkViews;
  private readonly pendingTitles = new Set<Promise<void>>();
  private readonly unit: UnitOfWork<LinkChangePorts>;
  /** The statistics privacy a link made without one gets: the web app's form starts on it. */
  readonly defaultPrivacy: DefaultStatsPrivacy;

  constructor(private readonly deps: LinksServiceDeps) {
    this.views = new LinkViews(deps);
    this.unit = deps.unitOfWork ?? noUnitOfWork<LinkChangePorts>(deps);
    this.defaultPrivacy = deps.defaultPrivacy ?? PRIVATE_STATS;
  }

  async list(accountId: number, filter: LinkFilter, page: PageRequest, count?: CountRequest): Promise<Page<LinkView>> {
    const result = await this.deps.links.list(accountId, filter, page, this.deps.clock.now(), count);
    return { ...result, items: await this.views.of(accountId, result.items) };
  }

  /** The first few of a list, uncounted: the dashboard's latest and most clicked. */
  async first(accountId: number, filter: LinkFilter, limit: number): Promise<LinkView[]> {
    return this.views.of(accountId, await this.deps.links.first(accountId, filter, limit, this.deps.clock.now()));
  }

  async get(accountId: number, id: number): Promise<LinkView> {
    return (await this.views.of(accountId, [await this.require(accountId, id)]))[0]!;
  }

  async create(accountId: number, timeZone: string, input: LinkInput, actor: AuditActor): Promise<LinkView> {
    const { checked, domainId } = await this.check(accountId, timeZone, input);
    const fields: LinkFields = {
      ...newLinkFields(domainId, null, this.defaultPrivacy),
      alias: checked.fields.alias ?? (await this.freeAlias(domainId)),
      ...checked.fields,
      ...(await this.hashSecrets(checked)),
    };
    // As on update: a statistics password exists only while privacy is 2.
    if (fields.privacy !== 2) fields.privacyPasswordHash = null;
    // The link and its event are one unit; what must not follow a rolled-back write comes after.
    const view = await this.unit(async (tx) => {
      const link = await tx.links.insert(accountId, fields, checked.pixelIds ?? [], this.deps.clock.now());
      await tagLinks(tx.tags, accountId, [link.id], checked.tagNames, this.deps.clock.now());
      const view = (await new LinkViews(tx).of(accountId, [link]))[0]!;
      await tx.onEvent?.changed(accountId, 'link.created', [{ link, view }]);
      await auditLinks(tx, accountId, actor, 'link.created', [{ before: null, after: link }], this.deps.clock.now());
      return view;
    });
    const { link } = view;
    this.deps.invalidation?.linkChanged(link.id, link.alias);
    this.learnPage(link, link.title === null && input.title === undefined);
    return view;
  }

  async update(
    accountId: number,
    timeZone: string,
    id: number,
    input: LinkInput,
    actor: AuditActor,
    /** Runs first in the change's unit: a scheduled change claims itself there, so it is applied once (link-schedules.ts). */
    inUnit?: (tx: LinkChangePorts) => Promise<void>,
  ): Promise<LinkView> {
    const existing = await this.require(accountId, id);
    const { checked } = await this.check(accountId, timeZone, input, existing);
    if (existing.blockedAt !== null && checked.fields.disabled === 0)
      throw ValidationError.of('disabled', BLOCKED_MESSAGE);
    const fields: Partial<LinkFields> = { ...checked.fields, ...(await this.hashSecrets(checked)) };
    if ((fields.privacy ?? existing.privacy) !== 2) fields.privacyPasswordHash = null;
    const view = await this.unit(async (tx) => {
      await inUnit?.(tx);
      const link = await tx.links.update(accountId, id, fields, checked.pixelIds, this.deps.clock.now());
      if (!link) throw new NotFoundError('link');
      await tagLinks(tx.tags, accountId, [id], checked.tagNames, this.deps.clock.now());
      const view = (await new LinkViews(tx).of(accountId, [link]))[0]!;
      await tx.onEvent?.changed(accountId, 'link.updated', [{ link, view }]);
      await auditLinks(
        tx,
        accountId,
        actor,
        'link.updated',
        [{ before: existing, after: link }],
        this.deps.clock.now(),
      );
      return view;
    });
    this.deps.invalidation?.linkChanged(id, view.link.alias);
    // A new destination's og: tags are a new card's defaults.
    if (view.link.url !== existing.url) this.learnPage(view.link, false);
    return view;
  }

  /**
   * Every rule, without writing: lets the HTTP adapter report the fields its schema found
   * wrong together with the ones only the rules can judge. id: the link being updated.
   */
  async faultsOf(accountId: number, timeZone: string, input: LinkInput, id?: number): Promise<FieldErrors> {
    const existing = id === undefined ? undefined : await this.require(accountId, id);
    return faultsOfCheck(() => this.check(accountId, timeZone, input, existing));
  }

  /** Applies the pure rules, then those that need the database; throws with every bad field. */
  private async check(accountId: number, timeZone: string, raw: LinkInput, existing?: Link) {
    // The domain is chosen once, at creation: moving a link would change its short URL.
    const input = existing ? { ...raw, domain: undefined } : raw;
    const bag = new FieldErrorBag();
    const checked = checkLinkInput(
      input,
      { urls: this.deps.urls, timeZone, existing, defaultPrivacy: this.defaultPrivacy },
      bag,
    );
    const domainId = existing ? existing.domainId : await this.checkDomain(accountId, input.domain, bag);
    await this.checkReferences(accountId, input, checked, bag);
    if (checked.tagNames !== undefined && checked.tagNames.length > 0 && !this.deps.tags)
      bag.add('tags', messages.invalid('tags'));
    const alias = checked.fields.alias;
    const unchanged = existing !== undefined && alias?.toLowerCase() === existing.alias.toLowerCase();
    if (alias && !unchanged && !bag.has('alias') && (await this.deps.links.aliasTaken(domainId, alias, existing?.id))) {
      bag.add('alias', messages.taken('alias'));
    }
    bag.throwIfAny();
    return { checked, domainId };
  }

  async delete(accountId: number, id: number, actor: AuditActor): Promise<void> {
    await this.unit(async (tx) => {
      // Read first only when someone listens: the event and the audit entry tell which link went.
      const gone = tx.onEvent || tx.audit ? await tx.links.findById(accountId, id) : null;
      if (!(await tx.links.delete(accountId, id))) throw new NotFoundError('link');
      if (gone) await tx.onEvent?.changed(accountId, 'link.deleted', [{ link: gone, view: null }]);
      if (gone)
        await auditLinks(tx, accountId, actor, 'link.deleted', [{ before: gone, after: null }], this.deps.clock.now());
    });
    this.deps.invalidation?.linkChanged(id);
    await this.deps.forgetQuota?.(id);
  }

  /**
   * One change to many links, with the rules of the one-by-one calls: only the account's own
   * links are touched (another account's ids are skipped, not counted), a space must be the
   * account's, and each changed link leaves the redirect's cache. Answers how many changed.
   */
  async bulk(accountId: number, change: BulkChange, target: BulkTarget, actor: AuditActor): Promise<number> {
    await this.checkBulkChange(accountId, change);
    let changed = 0;
    for await (const chunk of targetedChunks(this.deps.links, accountId, target, () => this.deps.clock.now())) {
      // A link an operator took down stays down: enabling passes it by.
      const ids = chunk.filter((l) => change.kind !== 'enable' || l.blockedAt === null).map((l) => l.id);
      // Each chunk with its events is one unit: a failure leaves the chunks before it done.
      const done = await this.unit(async (tx) => {
        const done = await this.applyBulk(tx.links, accountId, change, ids);
        await this.emitBulk(tx, accountId, change, chunk, done);
        await this.auditBulk(tx, accountId, change, chunk, done, actor);
        return done;
      });
      for (const id of done) this.deps.invalidation?.linkChanged(id);
      const forget = this.deps.forgetQuota;
      if (change.kind === 'delete' && forget) await Promise.all(done.map((id) => forget(id)));
      changed += done.length;
    }
    return changed;
  }

  /** Each link a bulk change reached is told as its own update or deletion. */
  private async emitBulk(
    tx: LinkChangePorts,
    accountId: number,
    change: BulkChange,
    before: readonly Link[],
    done: readonly number[],
  ): Promise<void> {
    const listener = tx.onEvent;
    if (!listener || done.length === 0) return;
    const reached = new Set(done);
    if (change.kind === 'delete') {
      const gone = before.filter((link) => reached.has(link.id)).map((link) => ({ link, view: null }));
      await listener.changed(accountId, 'link.deleted', gone);
      return;
    }
    if (!(await listener.listens(accountId, 'link.updated'))) return;
    const views = await new LinkViews(tx).of(accountId, await tx.links.findByIds(accountId, done));
    await listener.changed(
      accountId,
      'link.updated',
      views.map((view) => ({ link: view.link, view })),
    );
  }

  /** One entry per link a bulk change reached, in the chunk's unit. */
  private async auditBulk(
    tx: LinkChangePorts,
    accountId: number,
    change: BulkChange,
    before: readonly Link[],
    done: readonly number[],
    actor: AuditActor,
  ): Promise<void> {
    if (!recordsChanges(tx) || done.length === 0) return;
    const reached = new Set(done);
    const was = before.filter((link) => reached.has(link.id));
    const now = this.deps.clock.now();
    if (change.kind === 'delete') {
      await auditLinks(
        tx,
        accountId,
        actor,
        'link.deleted',
        was.map((link) => ({ before: link, after: null })),
        now,
      );
      return;
    }
    const after = new Map((await tx.links.findByIds(accountId, done)).map((link) => [link.id, link]));
    await auditLinks(
      tx,
      accountId,
      actor,
      'link.updated',
      was.map((link) => ({ before: link, after: after.get(link.id) ?? null })),
      now,
    );
  }

  /** A bulk change refers only to the account's own records, as a one-by-one update would. */
  private async checkBulkChange(accountId: number, change: BulkChange): Promise<void> {
    if (
      change.kind === 'move' &&
      change.spaceId !== null &&
      !(await this.deps.spaces.findById(accountId, change.spaceId))
    ) {
      throw ValidationError.of('space', messages.selected('space'));
    }
    if (change.kind !== 'pixels') return;
    const ids = new Set(change.pixelIds);
    if (ids.size > LINK_LIMITS.pixelsMax)
      throw ValidationError.of('pixels', messages.max('pixels', LINK_LIMITS.pixelsMax));
    if (ids.size > 0 && (await this.deps.pixels.findByIds(accountId, [...ids])).length !== ids.size) {
      throw ValidationError.of('pixels', messages.selected('pixels'));
    }
  }

  private applyBulk(
    links: LinkStore,
    accountId: number,
    change: BulkChange,
    ids: readonly number[],
  ): Promise<number[]> {
    const now = this.deps.clock.now();
    if (change.kind === 'delete') return links.deleteMany(accountId, ids);
    if (change.kind === 'pixels') return links.setPixelsMany(accountId, ids, [...new Set(change.pixelIds)], now);
    return links.updateMany(accountId, ids, fieldsOf(change), now);
  }

  /** How many links a bulk action would reach (for its confirmation). */
  async countTargeted(accountId: number, target: BulkTarget): Promise<number> {
    if ('filter' in target)
      return (await this.deps.links.list(accountId, target.filter, { page: 1, perPage: 1 }, this.deps.clock.now()))
        .total;
    let count = 0;
    for await (const chunk of targetedChunks(this.deps.links, accountId, target, () => this.deps.clock.now()))
      count += chunk.length;
    return count;
  }

  /** The targeted links with their space, domain and pixels, a chunk at a time in id order (exports). */
  async *exportChunks(accountId: number, target: BulkTarget): AsyncGenerator<LinkView[]> {
    for await (const chunk of targetedChunks(this.deps.links, accountId, target, () => this.deps.clock.now()))
      yield this.views.of(accountId, chunk);
  }

  /** Resolves once every background title lookup started so far has finished. */
  async idle(): Promise<void> {
    await Promise.all([...this.pendingTitles]);
  }

  private async require(accountId: number, id: number): Promise<Link> {
    const link = await this.deps.links.findById(accountId, id);
    if (!link) throw new NotFoundError('link');
    return link;
  }

  /** Referenced records must be the account's own; one foreign id fails the request. */
  private async checkReferences(accountId: number, input: LinkInput, checked: CheckedLinkInput, bag: FieldErrorBag) {
    if (input.space !== undefined) {
      const ok = input.space === null || (await this.deps.spaces.findById(accountId, input.space)) !== null;
      if (ok) checked.fields.spaceId = input.space;
      else bag.add('space', messages.selected('space'));
    }
    if (checked.pixelIds && checked.pixelIds.length > 0) {
      const found = await this.deps.pixels.findByIds(accountId, checked.pixelIds);
      if (found.length !== checked.pixelIds.length) bag.add('pixels', messages.selected('pixels'));
    }
  }

  private async checkDomain(accountId: number, domain: number | null | undefined, bag: FieldErrorBag) {
    if (domain === undefined || domain === null) return null;
    if (await this.deps.domains.findById(accountId, domain)) return domain;
    bag.add('domain', messages.selected('domain'));
    return null;
  }

  private async hashSecrets(checked: CheckedLinkInput): Promise<Partial<LinkFields>> {
    const out: Partial<LinkFields> = {};
    if (checked.password !== undefined)
      out.passwordHash = checked.password ? await hashPassword(checked.password) : null;
    if (checked.privacyPassword !== undefined) {
      out.privacyPasswordHash = checked.privacyPassword ? await hashPassword(checked.privacyPassword) : null;
    }
    return out;
  }

  private async freeAlias(domainId: number | null): Promise<string> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const alias = randomAlias(ALIAS_LENGTH + Math.floor(attempt / 2));
      if (!isReservedAlias(alias) && !(await this.deps.links.aliasTaken(domainId, alias))) return alias;
    }
    throw ValidationError.of('alias', 'No free alias could be generated; please choose one.');
  }

  /**
   * Learns in the background what the destination says of itself: its title when the link has
   * none (wantsTitle), and its og: tags, a link preview's defaults (docs/design/social-cards.md).
   */
  private learnPage(link: Link, wantsTitle: boolean): void {
    const fetcher = this.deps.titles;
    if (!fetcher || (!wantsTitle && !fetcher.fetchPage)) return;
    const task = (fetcher.fetchPage ? this.learnFacts(link, wantsTitle) : this.learnTitle(link))
      .catch(() => undefined) // a title is a nicety: its failure must never surface
      .finally(() => this.pendingTitles.delete(task));
    this.pendingTitles.add(task);
  }

  private async learnTitle(link: Link): Promise<void> {
    const title = await this.deps.titles!.fetchTitle(link.url);
    if (title) await this.deps.links.setTitle(link.id, title);
  }

  private async learnFacts(link: Link, wantsTitle: boolean): Promise<void> {
    const facts = await this.deps.titles!.fetchPage!(link.url);
    if (wantsTitle && facts?.title) await this.deps.links.setTitle(link.id, facts.title);
    await this.deps.links.setPageCard(link.id, link.url, facts?.card ?? null);
    // The redirect keeps the card it shows unfurlers: it reads the link again.
    this.deps.invalidation?.linkChanged(link.id, link.alias);
  }
}
