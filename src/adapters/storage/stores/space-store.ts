import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../../core/shared/page.ts';
import type { Space } from '../../../core/spaces/space.ts';
import type { SpaceFilter, SpaceStore } from '../../../core/spaces/space-store.ts';
import type { Database, SpacesTable } from '../schema.ts';
import { OwnedRowsStore } from './owned-rows.ts';

const toSpace = (r: Selectable<SpacesTable>): Space => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  color: r.color,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class SqlSpaceStore extends OwnedRowsStore<'spaces', Space> implements SpaceStore {
  constructor(db: Kysely<Database>) {
    super(db, 'spaces', toSpace, 'name_key');
  }

  async insert(accountId: number, fields: { name: string; color: number }, now: number) {
    const row = await this.db
      .insertInto('spaces')
      .values({
        account_id: accountId,
        ...fields,
        name_key: fields.name.toLowerCase(),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSpace(row);
  }

  async update(accountId: number, id: number, fields: { name?: string; color?: number }, now: number) {
    const row = await this.db
      .updateTable('spaces')
      .set({ ...fields, ...(fields.name ? { name_key: fields.name.toLowerCase() } : {}), updated_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returningAll()
      .executeTakeFirst();
    return row ? toSpace(row) : null;
  }

  nameTaken(accountId: number, name: string, exceptId?: number) {
    return this.isNameTaken(accountId, name, exceptId);
  }

  list(accountId: number, filter: SpaceFilter, page: PageRequest) {
    return this.listPage(accountId, filter, page);
  }
}
