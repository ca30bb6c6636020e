import type { Kysely } from 'kysely';
import type { ImportLeases, LeaseSubject } from '../../import/import-leases.ts';
import type { Database } from '../schema.ts';

/**
 * One row a workspace (migration 0021) and one a person (0042) while their import runs:
 * shared by every instance on the database. The two tables have the same shape; only the key's
 * column differs, so each statement is written once per table.
 */
export class SqlImportLeases implements ImportLeases {
  constructor(private readonly db: Kysely<Database>) {}

  async take(subject: LeaseSubject, holder: string, now: number, until: number): Promise<boolean> {
    // One statement on either engine: a row past its time is taken over, a live one left alone.
    const row =
      subject.kind === 'workspace'
        ? await this.db
            .insertInto('import_leases')
            .values({ account_id: subject.id, holder, lease_until: until })
            .onConflict((oc) =>
              oc
                .column('account_id')
                .doUpdateSet({ holder, lease_until: until })
                .where('import_leases.lease_until', '<', now),
            )
            .returning('holder')
            .executeTakeFirst()
        : await this.db
            .insertInto('import_person_leases')
            .values({ person_id: subject.id, holder, lease_until: until })
            .onConflict((oc) =>
              oc
                .column('person_id')
                .doUpdateSet({ holder, lease_until: until })
                .where('import_person_leases.lease_until', '<', now),
            )
            .returning('holder')
            .executeTakeFirst();
    return row?.holder === holder;
  }

  async extend(subject: LeaseSubject, holder: string, until: number): Promise<boolean> {
    const result =
      subject.kind === 'workspace'
        ? await this.db
            .updateTable('import_leases')
            .set({ lease_until: until })
            .where('account_id', '=', subject.id)
            .where('holder', '=', holder)
            .executeTakeFirst()
        : await this.db
            .updateTable('import_person_leases')
            .set({ lease_until: until })
            .where('person_id', '=', subject.id)
            .where('holder', '=', holder)
            .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(subject: LeaseSubject, holder: string): Promise<void> {
    if (subject.kind === 'workspace')
      await this.db
        .deleteFrom('import_leases')
        .where('account_id', '=', subject.id)
        .where('holder', '=', holder)
        .execute();
    else
      await this.db
        .deleteFrom('import_person_leases')
        .where('person_id', '=', subject.id)
        .where('holder', '=', holder)
        .execute();
  }
}
