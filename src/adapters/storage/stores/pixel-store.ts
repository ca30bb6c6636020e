import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../../core/shared/page.ts';
import { offsetOf } from '../../../core/shared/page.ts';
import type { Pixel, PixelType } from '../../../core/pixels/pixel.ts';
import type { PixelFields, PixelFilter, PixelStore } from '../../../core/pixels/pixel-store.ts';
import type { Database, PixelsTable } from '../schema.ts';
import { containsIgnoringCase, countOf, pageOf } from '../sql-helpers.ts';

const toPixel = (r: Selectable<PixelsTable>): Pixel => ({
  id: r.id, accountId: r.account_id, name: r.name, type: r.type as PixelType, value: r.value,
  createdAt: r.created_at, updatedAt: r.updated_at,
});

export class SqlPixelStore implements PixelStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(accountId: number, fields: PixelFields, now: number) {
    const row = await this.db.insertInto('pixels')
      .values({ account_id: accountId, ...fields, name_key: fields.name.toLowerCase(), created_at: now, updated_at: now })
      .returningAll().executeTakeFirstOrThrow();
    return toPixel(row);
  }

  async update(accountId: number, id: number, fields: Partial<PixelFields>, now: number) {
    const row = await this.db.updateTable('pixels')
      .set({ ...fields, ...(fields.name ? { name_key: fields.name.toLowerCase() } : {}), updated_at: now })
      .where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
    return row ? toPixel(row) : null;
  }

  async findById(accountId: number, id: number) {
    const row = await this.db.selectFrom('pixels').selectAll()
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row ? toPixel(row) : null;
  }

  async findByIds(accountId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('pixels').selectAll()
      .where('account_id', '=', accountId).where('id', 'in', [...ids]).execute();
    return rows.map(toPixel);
  }

  async nameTaken(accountId: number, name: string, exceptId?: number) {
    let q = this.db.selectFrom('pixels').select('id')
      .where('account_id', '=', accountId).where('name_key', '=', name.toLowerCase());
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  list(accountId: number, filter: PixelFilter, page: PageRequest) {
    let q = this.db.selectFrom('pixels').where('account_id', '=', accountId);
    if (filter.search) q = q.where(containsIgnoringCase('name', filter.search));
    if (filter.type) q = q.where('type', '=', filter.type);
    const total = q.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst().then(countOf);
    const items = q.selectAll().orderBy('id', filter.sort).limit(page.perPage).offset(offsetOf(page)).execute();
    return pageOf(total, items.then((rows) => rows.map(toPixel)), page);
  }

  async delete(accountId: number, id: number) {
    const result = await this.db.deleteFrom('pixels').where('id', '=', id).where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
