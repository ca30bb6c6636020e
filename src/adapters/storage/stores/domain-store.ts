import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../../core/shared/page.ts';
import type { Domain } from '../../../core/domains/domain.ts';
import {
  NAME_TAKEN,
  type DomainClaim,
  type DomainFields,
  type DomainFilter,
  type DomainStore,
} from '../../../core/domains/domain-store.ts';
import type { Database, DomainsTable } from '../schema.ts';
import { isUniqueViolation } from '../sql-helpers.ts';
import { OwnedRowsStore } from './owned-rows.ts';

const toDomain = (r: Selectable<DomainsTable>): Domain => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  indexPage: r.index_page,
  notFoundPage: r.not_found_page,
  verificationToken: r.verification_token,
  verifiedAt: r.verified_at,
  appleAppSiteAssociation: r.apple_app_site_association ?? null,
  assetLinks: r.assetlinks ?? null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toColumns = (f: Partial<DomainFields & DomainClaim>) => ({
  ...(f.name !== undefined ? { name: f.name } : {}),
  ...(f.indexPage !== undefined ? { index_page: f.indexPage } : {}),
  ...(f.notFoundPage !== undefined ? { not_found_page: f.notFoundPage } : {}),
  ...(f.verificationToken !== undefined ? { verification_token: f.verificationToken } : {}),
  ...(f.verifiedAt !== undefined ? { verified_at: f.verifiedAt } : {}),
  ...(f.appleAppSiteAssociation !== undefined ? { apple_app_site_association: f.appleAppSiteAssociation } : {}),
  ...(f.assetLinks !== undefined ? { assetlinks: f.assetLinks } : {}),
});

/** The unique indexes (one verified domain per name, one claim per account and name) decide races. */
async function unlessTaken<T>(write: Promise<T>): Promise<T | typeof NAME_TAKEN> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) return NAME_TAKEN;
    throw error;
  }
}

export class SqlDomainStore extends OwnedRowsStore<'domains', Domain> implements DomainStore {
  constructor(db: Kysely<Database>) {
    // Host names are stored lower-cased; several accounts may claim one, one verifies it.
    super(db, 'domains', toDomain, 'name');
  }

  async insert(accountId: number, fields: DomainFields & DomainClaim, now: number) {
    const row = await unlessTaken(
      this.db
        .insertInto('domains')
        .values({
          account_id: accountId,
          ...toColumns(fields),
          name: fields.name,
          verification_token: fields.verificationToken,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return row === NAME_TAKEN ? row : toDomain(row);
  }

  async update(accountId: number, id: number, fields: Partial<DomainFields & DomainClaim>, now: number) {
    const row = await unlessTaken(
      this.db
        .updateTable('domains')
        .set({ ...toColumns(fields), updated_at: now })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .returningAll()
        .executeTakeFirst(),
    );
    return row === NAME_TAKEN ? row : row ? toDomain(row) : null;
  }

  async nameVerified(name: string, exceptId?: number) {
    let q = this.db.selectFrom('domains').select('id').where('name', '=', name).where('verified_at', 'is not', null);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  nameHeldBy(accountId: number, name: string, exceptId?: number) {
    return this.isNameTaken(accountId, name, exceptId);
  }

  async claimsOf(name: string) {
    const rows = await this.db.selectFrom('domains').selectAll().where('name', '=', name).orderBy('id').execute();
    return rows.map(toDomain);
  }

  list(accountId: number, filter: DomainFilter, page: PageRequest) {
    return this.listPage(accountId, filter, page);
  }
}
