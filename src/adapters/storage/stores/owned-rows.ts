/* eslint-disable @typescript-eslint/no-unnecessary-type-assertion -- the casts below pick one table of
   the generic union so Kysely's overloads resolve: the rule calls them no-ops, tsc fails without them. */
import { sql, type Generated, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Page, PageRequest } from '../../../core/shared/page.ts';
import { offsetOf } from '../../../core/shared/page.ts';
import type { Database } from '../schema.ts';
import { containsIgnoringCase, countOf, pageOf } from '../sql-helpers.ts';

/** The tables of things an account names and owns, whose reads are all alike. */
export type OwnedTable = 'spaces' | 'pixels' | 'domains' | 'utm_templates';

/** What these tables have in common. */
interface OwnedColumns {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface OwnedListFilter {
  search?: string | undefined;
  sort: 'asc' | 'desc';
  /** Further equalities on the table's own columns (a pixel's `type`). */
  equal?: Record<string, string | undefined>;
}

/**
 * The reads and the delete that the stores of spaces, pixels and domains share, scoped to the
 * account: by id, by ids, a page with a search on the name, whether a name is taken. Each
 * store adds its inserts and updates, whose columns differ.
 */
export abstract class OwnedRowsStore<T extends OwnedTable, Item> {
  // Kysely cannot type a query over a table named by a type parameter; the tables share
  // OwnedColumns, and every row read goes back to the caller as its own table's (toItem).
  private readonly owned: Kysely<Record<OwnedTable, OwnedColumns>>;

  protected constructor(
    protected readonly db: Kysely<Database>,
    private readonly table: T,
    private readonly toItem: (row: Selectable<Database[T]>) => Item,
    /** The column names compare on: `name_key` (lower-cased) or `name` (domains: stored lower-cased). */
    private readonly nameColumn: 'name_key' | 'name',
  ) {
    this.owned = db as unknown as Kysely<Record<OwnedTable, OwnedColumns>>;
  }

  private item = (row: Selectable<OwnedColumns>): Item => this.toItem(row as unknown as Selectable<Database[T]>);

  async findById(accountId: number, id: number): Promise<Item | null> {
    const row = await this.owned
      .selectFrom(this.table as OwnedTable)
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? this.item(row) : null;
  }

  async findByIds(accountId: number, ids: readonly number[]): Promise<Item[]> {
    if (ids.length === 0) return [];
    const rows = await this.owned
      .selectFrom(this.table as OwnedTable)
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map(this.item);
  }

  /** Names compare lower-cased; an account's own names only, unless accountId is null. */
  protected async isNameTaken(accountId: number | null, name: string, exceptId?: number): Promise<boolean> {
    let q = this.owned
      .selectFrom(this.table as OwnedTable)
      .select('id')
      .where(sql<SqlBool>`${sql.ref(this.nameColumn)} = ${name.toLowerCase()}`);
    if (accountId !== null) q = q.where('account_id', '=', accountId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  protected listPage(accountId: number, filter: OwnedListFilter, page: PageRequest): Promise<Page<Item>> {
    let q = this.owned.selectFrom(this.table as OwnedTable).where('account_id', '=', accountId);
    if (filter.search) q = q.where(containsIgnoringCase('name', filter.search));
    for (const [column, value] of Object.entries(filter.equal ?? {})) {
      if (value !== undefined) q = q.where(sql<SqlBool>`${sql.ref(column)} = ${value}`);
    }
    const total = q
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirst()
      .then(countOf);
    const items = q.selectAll().orderBy('id', filter.sort).limit(page.perPage).offset(offsetOf(page)).execute();
    return pageOf(
      total,
      items.then((rows) => rows.map(this.item)),
      page,
    );
  }

  /** What becomes of the rows that point at it is the schema's foreign keys' to say. */
  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.owned
      .deleteFrom(this.table as OwnedTable)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
