import type { CountRequest, Page, PageRequest } from '../shared/page.ts';
import type { Link, LinkFields, LinkFilter } from './link.ts';
import type { SocialCard } from './social-card.ts';

/** Who holds an alias (any account: aliases are unique per domain across the service). */
export interface AliasOwner {
  id: number;
  accountId: number;
}

export interface LinkStore {
  /** Inserts the link and its pixel attachments in one transaction; a taken alias raises a ValidationError. */
  insert(accountId: number, fields: LinkFields, pixelIds: readonly number[], now: number): Promise<Link>;
  /** pixelIds undefined leaves attachments as they are. */
  update(
    accountId: number,
    id: number,
    fields: Partial<LinkFields>,
    pixelIds: readonly number[] | undefined,
    now: number,
  ): Promise<Link | null>;
  findById(accountId: number, id: number): Promise<Link | null>;
  /** Whoever owns it: for pages that decide by the link's own settings (public statistics). */
  findAnyById(id: number): Promise<Link | null>;
  /** Case-insensitive, within one domain (null: the default domain). */
  aliasTaken(domainId: number | null, alias: string, exceptId?: number): Promise<boolean>;
  list(
    accountId: number,
    filter: LinkFilter,
    page: PageRequest,
    now: number,
    count?: CountRequest,
  ): Promise<Page<Link>>;
  /** The first `limit` links of the list's order, without counting the rest (a summary's few). */
  first(accountId: number, filter: LinkFilter, limit: number, now: number): Promise<Link[]>;
  delete(accountId: number, id: number): Promise<boolean>;
  /** The account's links among these ids (others are skipped), by id. */
  findByIds(accountId: number, ids: readonly number[]): Promise<Link[]>;
  /** Up to `limit` of the account's links that pass the filter, with ids above `afterId`, by id. */
  listAfter(accountId: number, filter: LinkFilter, afterId: number, limit: number, now: number): Promise<Link[]>;
  /** Sets the same fields on the account's links among these ids; answers the ids changed. */
  updateMany(accountId: number, ids: readonly number[], fields: Partial<LinkFields>, now: number): Promise<number[]>;
  /** Replaces the pixels of the account's links among these ids, in one transaction; answers the ids changed. */
  setPixelsMany(accountId: number, ids: readonly number[], pixelIds: readonly number[], now: number): Promise<number[]>;
  /** Deletes the account's links among these ids; answers the ids deleted. */
  deleteMany(accountId: number, ids: readonly number[]): Promise<number[]>;
  /** Of these lower-cased aliases, those taken on the domain (null: the default one), by lower-cased alias. */
  aliasOwners(domainId: number | null, aliasKeys: readonly string[]): Promise<Map<string, AliasOwner>>;
  /** Inserts the links with their pixels in one transaction (an import's batch); answers their ids in order. */
  insertMany(
    accountId: number,
    items: ReadonlyArray<{ fields: LinkFields; pixelIds: readonly number[] }>,
    now: number,
  ): Promise<number[]>;
  setTitle(id: number, title: string): Promise<void>;
  /** The destination's own og: tags as last fetched (null: none), for this url only: a link moved on meanwhile keeps its own. */
  setPageCard(id: number, url: string, card: SocialCard | null): Promise<void>;
}
