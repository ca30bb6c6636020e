import { ValidationError } from '../../../src/core/shared/errors.ts';
import { messages } from '../../../src/core/shared/messages.ts';
import type { Page, PageRequest } from '../../../src/core/shared/page.ts';
import { listed, owned } from './owned-rows.ts';
import type { AliasOwner, LinkStore } from '../../../src/core/links/link-store.ts';
import type { Link, LinkFields } from '../../../src/core/links/link.ts';
import { PRIVATE_STATS, newLinkFields } from '../../../src/core/links/new-link-fields.ts';
import type { ChangedLink, LinkChange, LinkEventListener } from '../../../src/core/links/link-events.ts';
import type { SpaceFilter, SpaceStore } from '../../../src/core/spaces/space-store.ts';
import type { Space } from '../../../src/core/spaces/space.ts';
import {
  NAME_TAKEN,
  type DomainClaim,
  type DomainFields,
  type DomainFilter,
  type DomainStore,
} from '../../../src/core/domains/domain-store.ts';
import type { Domain } from '../../../src/core/domains/domain.ts';
import type { PixelFields, PixelFilter, PixelStore } from '../../../src/core/pixels/pixel-store.ts';
import type { Pixel } from '../../../src/core/pixels/pixel.ts';

/** Small in-memory stand-ins for the links feature's ports, for unit tests of the core (the importer's). */

const notUsed = (): never => {
  throw new Error('not used by these tests');
};

/** As the SQL stores read them back: in ascending order. */
const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

const aliasTaken = () => ValidationError.of('alias', messages.taken('alias'));

export class MemoryLinkStore implements LinkStore {
  readonly links: Link[] = [];
  /** Every write, in order: what a dry run must leave empty. */
  readonly writes: string[] = [];
  /** Aliases another writer takes just before the next insertMany (a race the importer survives). */
  readonly takenMeanwhile: Array<{ accountId: number; alias: string }> = [];
  /** findByIds calls: reads a caller may spare. */
  reads = 0;

  add(accountId: number, fields: Partial<LinkFields> & { alias: string }, now = 0): Link {
    const link: Link = {
      ...newLinkFields(null, null, PRIVATE_STATS),
      url: 'https://example.com/',
      ...fields,
      id: this.links.length + 1,
      accountId,
      pageCard: null,
      lastRotation: 0,
      blockedAt: null,
      clicks: 0,
      pixelIds: [],
      createdAt: now,
      updatedAt: now,
    };
    this.links.push(link);
    return link;
  }

  private holder(domainId: number | null, key: string): Link | undefined {
    return this.links.find((l) => l.domainId === domainId && l.alias.toLowerCase() === key);
  }

  async aliasOwners(domainId: number | null, aliasKeys: readonly string[]): Promise<Map<string, AliasOwner>> {
    const owners = new Map<string, AliasOwner>();
    for (const key of aliasKeys) {
      const l = this.holder(domainId, key);
      if (l) owners.set(key, { id: l.id, accountId: l.accountId });
    }
    return owners;
  }

  async insertMany(
    accountId: number,
    items: ReadonlyArray<{ fields: LinkFields; pixelIds: readonly number[] }>,
    now: number,
  ): Promise<number[]> {
    for (const t of this.takenMeanwhile.splice(0)) this.add(t.accountId, { alias: t.alias });
    // As the unique index: one alias taken, or given twice in the batch, refuses the whole statement.
    const keys = items.map((i) => `${i.fields.domainId ?? ''}/${i.fields.alias.toLowerCase()}`);
    if (
      new Set(keys).size < keys.length ||
      items.some((i) => this.holder(i.fields.domainId, i.fields.alias.toLowerCase()))
    )
      throw aliasTaken();
    this.writes.push(`insert ${items.length}`);
    return items.map((i) => {
      const link = this.add(accountId, i.fields, now);
      link.pixelIds = sorted(i.pixelIds);
      return link.id;
    });
  }

  async update(
    accountId: number,
    id: number,
    fields: Partial<LinkFields>,
    pixelIds: readonly number[] | undefined,
    now: number,
  ): Promise<Link | null> {
    const link = this.links.find((l) => l.id === id && l.accountId === accountId);
    if (!link) return null;
    const moved = {
      domainId: fields.domainId !== undefined ? fields.domainId : link.domainId,
      alias: fields.alias ?? link.alias,
    };
    const holder = this.holder(moved.domainId, moved.alias.toLowerCase());
    if (holder && holder !== link) throw aliasTaken();
    this.writes.push(`update ${id}`);
    Object.assign(link, fields, { updatedAt: now }, pixelIds ? { pixelIds: sorted(pixelIds) } : {});
    return { ...link };
  }

  async findByIds(accountId: number, ids: readonly number[]): Promise<Link[]> {
    this.reads++;
    return this.links.filter((l) => l.accountId === accountId && ids.includes(l.id)).map((l) => ({ ...l }));
  }

  insert = notUsed;
  findById = notUsed;
  findAnyById = notUsed;
  aliasTaken = notUsed;
  list = notUsed;
  first = notUsed;
  delete = notUsed;
  listAfter = notUsed;
  updateMany = notUsed;
  setPixelsMany = notUsed;
  deleteMany = notUsed;
  setTitle = notUsed;
  setPageCard = notUsed;
}

export class MemorySpaceStore implements SpaceStore {
  readonly spaces: Space[] = [];

  async insert(accountId: number, fields: { name: string; color: number }, now: number): Promise<Space> {
    const space = { id: this.spaces.length + 1, accountId, ...fields, createdAt: now, updatedAt: now };
    this.spaces.push(space);
    return { ...space };
  }
  async list(accountId: number, filter: SpaceFilter, page: PageRequest): Promise<Page<Space>> {
    return listed(this.spaces, accountId, filter, page);
  }
  async findByIds(accountId: number, ids: readonly number[]): Promise<Space[]> {
    return owned(this.spaces, accountId, ids);
  }
  update = notUsed;
  findById = notUsed;
  nameTaken = notUsed;
  delete = notUsed;
}

export class MemoryDomainStore implements DomainStore {
  readonly domains: Domain[] = [];

  add(accountId: number, name: string): Domain {
    const domain = {
      id: this.domains.length + 1,
      accountId,
      name,
      indexPage: null,
      notFoundPage: null,
      appleAppSiteAssociation: null,
      assetLinks: null,
      verificationToken: 't',
      verifiedAt: 0,
      createdAt: 0,
      updatedAt: 0,
    };
    this.domains.push(domain);
    return domain;
  }
  async insert(
    accountId: number,
    fields: DomainFields & DomainClaim,
    now: number,
  ): Promise<Domain | typeof NAME_TAKEN> {
    // As the unique indexes: one claim per account and name, one verified domain per name.
    const claims = this.domains.filter((d) => d.name === fields.name);
    if (claims.some((d) => d.accountId === accountId || (fields.verifiedAt !== null && d.verifiedAt !== null)))
      return NAME_TAKEN;
    const domain = { ...this.add(accountId, fields.name), ...fields, createdAt: now, updatedAt: now };
    this.domains[domain.id - 1] = domain;
    return { ...domain };
  }
  async list(accountId: number, filter: DomainFilter, page: PageRequest): Promise<Page<Domain>> {
    return listed(this.domains, accountId, filter, page);
  }
  async findByIds(accountId: number, ids: readonly number[]): Promise<Domain[]> {
    return owned(this.domains, accountId, ids);
  }
  update = notUsed;
  findById = notUsed;
  nameVerified = notUsed;
  nameHeldBy = notUsed;
  claimsOf = notUsed;
  delete = notUsed;
}

export class MemoryPixelStore implements PixelStore {
  readonly pixels: Pixel[] = [];

  add(accountId: number, name: string): Pixel {
    const pixel: Pixel = {
      id: this.pixels.length + 1,
      accountId,
      name,
      type: 'facebook',
      value: 'x',
      createdAt: 0,
      updatedAt: 0,
    };
    this.pixels.push(pixel);
    return pixel;
  }
  async insert(accountId: number, fields: PixelFields, now: number): Promise<Pixel> {
    const pixel = { ...this.add(accountId, fields.name), ...fields, createdAt: now, updatedAt: now };
    this.pixels[pixel.id - 1] = pixel;
    return { ...pixel };
  }
  async list(accountId: number, filter: PixelFilter, page: PageRequest): Promise<Page<Pixel>> {
    return listed(this.pixels, accountId, filter, page, (p) => filter.type === undefined || p.type === filter.type);
  }
  async findByIds(accountId: number, ids: readonly number[]): Promise<Pixel[]> {
    return owned(this.pixels, accountId, ids);
  }
  update = notUsed;
  findById = notUsed;
  nameTaken = notUsed;
  delete = notUsed;
}

/** Records what a LinkEventListener is told; `listening` false answers that no one listens. */
export class RecordingListener implements LinkEventListener {
  readonly told: Array<{ accountId: number; change: LinkChange; links: readonly ChangedLink[] }> = [];
  listening = true;

  async listens(): Promise<boolean> {
    return this.listening;
  }
  async changed(accountId: number, change: LinkChange, links: readonly ChangedLink[]): Promise<void> {
    this.told.push({ accountId, change, links });
  }
  /** Each link told, as [change, alias]. */
  flat(): Array<[LinkChange, string]> {
    return this.told.flatMap((t) => t.links.map((l) => [t.change, l.link.alias] as [LinkChange, string]));
  }
}
