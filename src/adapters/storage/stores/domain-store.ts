import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../../core/shared/page.ts';
import type { Domain } from '../../../core/domains/domain.ts';
import type { DomainFields, DomainFilter, DomainStore } from '../../../core/domains/domain-store.ts';
import type { Database, DomainsTable } from '../schema.ts';
import { OwnedRowsStore } from './owned-rows.ts';

const toDomain = (r: Selectable<DomainsTable>): Domain => ({
  id: r.id, accountId: r.account_id, name: r.name, indexPage: r.index_page, notFoundPage: r.not_found_page,
  createdAt: r.created_at, updatedAt: r.updated_at,
});

const toColumns = (f: Partial<DomainFields>) => ({
  ...(f.name !== undefined ? { name: f.name } : {}),
  ...(f.indexPage !== undefined ? { index_page: f.indexPage } : {}),
  ...(f.notFoundPage !== undefined ? { not_found_page: f.notFoundPage } : {}),
});

export class SqlDomainStore extends OwnedRowsStore<'domains', Domain> implements DomainStore {
  constructor(db: Kysely<Database>) {
    // Host names are stored lower-cased and unique across accounts.
    super(db, 'domains', toDomain, 'name');
  }

  async insert(accountId: number, fields: DomainFields, now: number) {
    const row = await this.db.insertInto('domains')
      .values({ account_id: accountId, name: fields.name, index_page: fields.indexPage, not_found_page: fields.notFoundPage, created_at: now, updated_at: now })
      .returningAll().executeTakeFirstOrThrow();
    return toDomain(row);
  }

  async update(accountId: number, id: number, fields: Partial<DomainFields>, now: number) {
    const row = await this.db.updateTable('domains')
      .set({ ...toColumns(fields), updated_at: now })
      .where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
    return row ? toDomain(row) : null;
  }

  nameTaken(name: string, exceptId?: number) {
    return this.isNameTaken(null, name, exceptId);
  }

  list(accountId: number, filter: DomainFilter, page: PageRequest) {
    return this.listPage(accountId, filter, page);
  }
}
