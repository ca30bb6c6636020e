import { sql, type Kysely } from 'kysely';
import { ValidationError } from '../../../core/shared/errors.ts';
import { messages } from '../../../core/shared/messages.ts';
import { offsetOf, type CountRequest, type PageRequest } from '../../../core/shared/page.ts';
import type { Link, LinkFields, LinkFilter } from '../../../core/links/link.ts';
import type { SocialCard } from '../../../core/links/social-card.ts';
import type { AliasOwner, LinkStore } from '../../../core/links/link-store.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { countOf, isUniqueViolation, pageOf } from '../sql-helpers.ts';
import { storeTransaction } from '../transactions.ts';
import { settlePendingClicks } from './link-pending-clicks.ts';
import { LinkCounts } from './link-counts.ts';
import { LinkMatching, ordered } from './link-matching.ts';
import {
  expiryToldAfter,
  pixelIdsOf,
  unsettledCounts,
  toColumns,
  toInsert,
  toLink,
  type LinkRow,
} from './link-rows.ts';

const PAIRS_PER_INSERT = 1000;

/**
 * The links' rows and their pixels: writes, reads by id and alias, and the list's pages, whose
 * filters and search are planned in link-matching.ts and link-search.ts and whose totals come
 * from the counters where they can (link-counts.ts).
 */
export class SqlLinkStore implements LinkStore {
  private readonly matching: LinkMatching;
  private readonly counts: LinkCounts;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {
    this.matching = new LinkMatching(db, engine);
    this.counts = new LinkCounts(db);
  }

  async insert(accountId: number, fields: LinkFields, pixelIds: readonly number[], now: number): Promise<Link> {
    try {
      return await storeTransaction(this.db, async (trx) => {
        const row = await trx
          .insertInto('links')
          .values(toInsert(accountId, fields, now))
          .returningAll()
          .executeTakeFirstOrThrow();
        if (pixelIds.length > 0) {
          await trx
            .insertInto('link_pixels')
            .values(pixelIds.map((pixel_id) => ({ link_id: row.id, pixel_id })))
            .execute();
        }
        return toLink({ ...row, pending_clicks: null, pending_rotation: null }, [...pixelIds]);
      });
    } catch (error) {
      throw this.translate(error);
    }
  }

  async update(
    accountId: number,
    id: number,
    fields: Partial<LinkFields>,
    pixelIds: readonly number[] | undefined,
    now: number,
  ): Promise<Link | null> {
    try {
      const updated = await storeTransaction(this.db, async (trx) => {
        if (this.capChanges(fields)) await settlePendingClicks(trx, accountId, [id]);
        const told = expiryToldAfter(fields, now);
        const result = await trx
          .updateTable('links')
          .set({ ...toColumns(fields), ...(told ? { expiry_told: told } : {}), updated_at: now })
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (pixelIds !== undefined) {
          await trx.deleteFrom('link_pixels').where('link_id', '=', id).execute();
          if (pixelIds.length > 0) {
            await trx
              .insertInto('link_pixels')
              .values(pixelIds.map((pixel_id) => ({ link_id: id, pixel_id })))
              .execute();
          }
        }
        return true;
      });
      return updated ? this.findById(accountId, id) : null;
    } catch (error) {
      throw this.translate(error);
    }
  }

  async findById(accountId: number, id: number): Promise<Link | null> {
    const row = await this.db
      .selectFrom('links')
      .selectAll('links')
      .select(unsettledCounts)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) return null;
    return toLink(row, (await pixelIdsOf(this.db, [id])).get(id) ?? []);
  }

  async findAnyById(id: number): Promise<Link | null> {
    const row = await this.db
      .selectFrom('links')
      .selectAll('links')
      .select(unsettledCounts)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return toLink(row, (await pixelIdsOf(this.db, [id])).get(id) ?? []);
  }

  async aliasTaken(domainId: number | null, alias: string, exceptId?: number): Promise<boolean> {
    let q = this.db
      .selectFrom('links')
      .select('id')
      .where('alias_key', '=', alias.toLowerCase())
      .where('domain_id', domainId === null ? 'is' : '=', domainId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async list(accountId: number, filter: LinkFilter, page: PageRequest, now: number, count: CountRequest = {}) {
    const q = await this.matching.query(accountId, filter, now);
    const bound = count.countUpTo;
    const total =
      this.counts.total(accountId, filter, now) ??
      (bound === undefined
        ? q.select((eb) => eb.fn.countAll().as('count'))
        : this.db
            .selectFrom(q.select(sql.lit(1).as('one')).limit(bound).as('matched'))
            .select((eb) => eb.fn.countAll().as('count'))
      )
        .executeTakeFirst()
        .then(countOf);
    const items = ordered(q.selectAll('links').select(unsettledCounts), filter.sort)
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute()
      .then((found) => this.withPixels(found));
    const listed = await pageOf(total, items, page);
    return bound !== undefined && listed.total >= bound ? { ...listed, totalIsLowerBound: true } : listed;
  }

  async first(accountId: number, filter: LinkFilter, limit: number, now: number): Promise<Link[]> {
    const q = await this.matching.query(accountId, filter, now);
    return this.withPixels(
      await ordered(q.selectAll('links').select(unsettledCounts), filter.sort).limit(limit).execute(),
    );
  }

  async findByIds(accountId: number, ids: readonly number[]): Promise<Link[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('links')
      .selectAll('links')
      .select(unsettledCounts)
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
    return this.withPixels(rows);
  }

  async listAfter(accountId: number, filter: LinkFilter, afterId: number, limit: number, now: number): Promise<Link[]> {
    const rows = await (
      await this.matching.query(accountId, filter, now)
    )
      .selectAll('links')
      .select(unsettledCounts)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return this.withPixels(rows);
  }

  async updateMany(
    accountId: number,
    ids: readonly number[],
    fields: Partial<LinkFields>,
    now: number,
  ): Promise<number[]> {
    if (ids.length === 0) return [];
    const told = expiryToldAfter(fields, now);
    return storeTransaction(this.db, async (trx) => {
      if (this.capChanges(fields)) await settlePendingClicks(trx, accountId, ids);
      const rows = await trx
        .updateTable('links')
        .set({ ...toColumns(fields), ...(told ? { expiry_told: told } : {}), updated_at: now })
        .where('account_id', '=', accountId)
        .where('id', 'in', [...ids])
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    });
  }

  /** A change of click cap on PostgreSQL first settles the links' pending clicks (link-pending-clicks.ts). */
  private capChanges(fields: Partial<LinkFields>): boolean {
    return this.engine === 'postgres' && fields.expirationClicks !== undefined;
  }

  async setPixelsMany(
    accountId: number,
    ids: readonly number[],
    pixelIds: readonly number[],
    now: number,
  ): Promise<number[]> {
    if (ids.length === 0) return [];
    return storeTransaction(this.db, async (trx) => {
      const rows = await trx
        .updateTable('links')
        .set({ updated_at: now })
        .where('account_id', '=', accountId)
        .where('id', 'in', [...ids])
        .returning('id')
        .execute();
      const changed = rows.map((r) => r.id);
      if (changed.length === 0) return [];
      await trx.deleteFrom('link_pixels').where('link_id', 'in', changed).execute();
      const pairs = changed.flatMap((link_id) => pixelIds.map((pixel_id) => ({ link_id, pixel_id })));
      // Bound the statement's parameters (SQLite allows 32 766) whatever the chunk and list sizes.
      for (let i = 0; i < pairs.length; i += PAIRS_PER_INSERT) {
        await trx
          .insertInto('link_pixels')
          .values(pairs.slice(i, i + PAIRS_PER_INSERT))
          .execute();
      }
      return changed;
    });
  }

  async deleteMany(accountId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .deleteFrom('links')
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('links')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async aliasOwners(domainId: number | null, aliasKeys: readonly string[]): Promise<Map<string, AliasOwner>> {
    const owners = new Map<string, AliasOwner>();
    if (aliasKeys.length === 0) return owners;
    const rows = await this.db
      .selectFrom('links')
      .select(['id', 'account_id', 'alias_key'])
      .where('alias_key', 'in', [...new Set(aliasKeys)])
      .where('domain_id', domainId === null ? 'is' : '=', domainId)
      .execute();
    for (const r of rows) owners.set(r.alias_key, { id: r.id, accountId: r.account_id });
    return owners;
  }

  async insertMany(
    accountId: number,
    items: ReadonlyArray<{ fields: LinkFields; pixelIds: readonly number[] }>,
    now: number,
  ): Promise<number[]> {
    if (items.length === 0) return [];
    try {
      return await storeTransaction(this.db, async (trx) => {
        const rows = await trx
          .insertInto('links')
          .values(items.map((i) => toInsert(accountId, i.fields, now)))
          .returning(['id', 'alias_key', 'domain_id'])
          .execute();
        // RETURNING promises no order: the alias (unique per domain) says which row is which.
        const idOf = new Map(rows.map((r) => [`${r.domain_id ?? ''}/${r.alias_key}`, r.id]));
        const ids = items.map((i) => idOf.get(`${i.fields.domainId ?? ''}/${i.fields.alias.toLowerCase()}`)!);
        const pairs = items.flatMap((i, n) => i.pixelIds.map((pixel_id) => ({ link_id: ids[n]!, pixel_id })));
        for (let i = 0; i < pairs.length; i += PAIRS_PER_INSERT)
          await trx
            .insertInto('link_pixels')
            .values(pairs.slice(i, i + PAIRS_PER_INSERT))
            .execute();
        return ids;
      });
    } catch (error) {
      throw this.translate(error);
    }
  }

  async setTitle(id: number, title: string): Promise<void> {
    // Only fills a gap: a title the owner set meanwhile wins.
    await this.db.updateTable('links').set({ title }).where('id', '=', id).where('title', 'is', null).execute();
  }

  async setPageCard(id: number, url: string, card: SocialCard | null): Promise<void> {
    const page_card = card === null ? null : JSON.stringify(card);
    await this.db.updateTable('links').set({ page_card }).where('id', '=', id).where('url', '=', url).execute();
  }

  private async withPixels(rows: LinkRow[]): Promise<Link[]> {
    const pixels = await pixelIdsOf(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toLink(r, pixels.get(r.id) ?? []));
  }

  private translate(error: unknown): unknown {
    // Two requests raced for one alias: the index decides, the client hears the usual answer.
    return isUniqueViolation(error) ? ValidationError.of('alias', messages.taken('alias')) : error;
  }
}
