import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../../core/shared/page.ts';
import { offsetOf } from '../../../core/shared/page.ts';
import type { Domain } from '../../../core/domains/domain.ts';
import type { DomainFields, DomainFilter, DomainStore } from '../../../core/domains/domain-store.ts';
import type { Database, DomainsTable } from '../schema.ts';
import { containsIgnoringCase, countOf, pageOf } from '../sql-helpers.ts';

const toDomain = (r: Selectable<DomainsTable>): Domain => ({
  id: r.id, accountId: r.account_id, name: r.name, indexPage: r.index_page, notFoundPage: r.not_found_page,
  createdAt: r.created_at, updatedAt: r.updated_at,
});

const toColumns = (f: Partial<DomainFields>) => ({
  ...(f.name !== undefined ? { name: f.name } : {}),
  ...(f.indexPage !== undefined ? { index_page: f.indexPage } : {}),
  ...(f.notFoundPage !== undefined ? { not_found_page: f.notFoundPage } : {}),
});

export class SqlDomainStore implements DomainStore {
  constructor(private readonly db: Kysely<Database>) {}

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

  async findById(accountId: number, id: number) {
    const row = await this.db.selectFrom('domains').selectAll()
      .where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row ? toDomain(row) : null;
  }

  async findByIds(accountId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('domains').selectAll()
      .where('account_id', '=', accountId).where('id', 'in', [...ids]).execute();
    return rows.map(toDomain);
  }

  async nameTaken(name: string, exceptId?: number) {
    let q = this.db.selectFrom('domains').select('id').where('name', '=', name.toLowerCase());
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  list(accountId: number, filter: DomainFilter, page: PageRequest) {
    let q = this.db.selectFrom('domains').where('account_id', '=', accountId);
    if (filter.search) q = q.where(containsIgnoringCase('name', filter.search));
    const total = q.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst().then(countOf);
    const items = q.selectAll().orderBy('id', filter.sort).limit(page.perPage).offset(offsetOf(page)).execute();
    return pageOf(total, items.then((rows) => rows.map(toDomain)), page);
  }

  async delete(accountId: number, id: number) {
    const result = await this.db.deleteFrom('domains').where('id', '=', id).where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
