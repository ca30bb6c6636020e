import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../../core/shared/page.ts';
import type { Pixel, PixelType } from '../../../core/pixels/pixel.ts';
import type { PixelFields, PixelFilter, PixelStore } from '../../../core/pixels/pixel-store.ts';
import type { Database, PixelsTable } from '../schema.ts';
import { OwnedRowsStore } from './owned-rows.ts';

const toPixel = (r: Selectable<PixelsTable>): Pixel => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  type: r.type as PixelType,
  value: r.value,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class SqlPixelStore extends OwnedRowsStore<'pixels', Pixel> implements PixelStore {
  constructor(db: Kysely<Database>) {
    super(db, 'pixels', toPixel, 'name_key');
  }

  async insert(accountId: number, fields: PixelFields, now: number) {
    const row = await this.db
      .insertInto('pixels')
      .values({
        account_id: accountId,
        ...fields,
        name_key: fields.name.toLowerCase(),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toPixel(row);
  }

  async update(accountId: number, id: number, fields: Partial<PixelFields>, now: number) {
    const row = await this.db
      .updateTable('pixels')
      .set({ ...fields, ...(fields.name ? { name_key: fields.name.toLowerCase() } : {}), updated_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returningAll()
      .executeTakeFirst();
    return row ? toPixel(row) : null;
  }

  nameTaken(accountId: number, name: string, exceptId?: number) {
    return this.isNameTaken(accountId, name, exceptId);
  }

  list(accountId: number, { type, ...filter }: PixelFilter, page: PageRequest) {
    return this.listPage(accountId, { ...filter, equal: { type } }, page);
  }
}
