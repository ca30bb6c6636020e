import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../../core/shared/page.ts';
import { offsetOf } from '../../../core/shared/page.ts';
import type { Space } from '../../../core/spaces/space.ts';
import type { SpaceFilter, SpaceStore } from '../../../core/spaces/space-store.ts';
import type { Database, SpacesTable } from '../schema.ts';
import { containsIgnoringCase, countOf, pageOf } from '../sql-helpers.ts';

const toSpace = (r: Selectable<SpacesTable>): Space => ({
  id: r.id, accountId: r.account_id, name: r.name, color: r.color, createdAt: r.created_at, updatedAt: r.updated_at,
});

export class SqlSpaceStore implements SpaceStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(accountId: number, fields: { name: string; color: number }, now: number) {
    const row = await this.db.insertInto('spaces')
      .values({ account_id: accountId, ...fields, name_key: fields.name.toLowerCase(), created_at: now, updated_at: now })
      .returningAll().executeTakeFirstOrThrow();
    return toSpace(row);
  }

  async update(accountId: number, id: number, fields: { name?: string; color?: number }, now: number) {
    const row = await this.db.updateTable('spaces')
      .set({ ...fields, ...(fields.name ? { name_key: fields.name.toLowerCase() } : {}), updated_at: now })
      .where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
    return row ? toSpace(row) : null;
  }

  async findById(accountId: number, id: number) {
    const row = await this.db.selectFrom('spaces').selectAll()
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row ? toSpace(row) : null;
  }

  async findByIds(accountId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('spaces').selectAll()
      .where('account_id', '=', accountId).where('id', 'in', [...ids]).execute();
    return rows.map(toSpace);
  }

  async nameTaken(accountId: number, name: string, exceptId?: number) {
    let q = this.db.selectFrom('spaces').select('id')
      .where('account_id', '=', accountId).where('name_key', '=', name.toLowerCase());
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  list(accountId: number, filter: SpaceFilter, page: PageRequest) {
    let q = this.db.selectFrom('spaces').where('account_id', '=', accountId);
    if (filter.search) q = q.where(containsIgnoringCase('name', filter.search));
    const total = q.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst().then(countOf);
    const items = q.selectAll().orderBy('id', filter.sort).limit(page.perPage).offset(offsetOf(page)).execute();
    return pageOf(total, items.then((rows) => rows.map(toSpace)), page);
  }

  async delete(accountId: number, id: number) {
    const result = await this.db.deleteFrom('spaces').where('id', '=', id).where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
