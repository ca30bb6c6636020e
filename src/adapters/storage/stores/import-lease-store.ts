import type { Kysely } from 'kysely';
import type { ImportLeases, LeaseSubject } from '../../import/import-leases.ts';
import type { Database } from '../schema.ts';

/**
 * Each subject's table and the column of its key: a workspace's (migration 0021) and a person's
 * (0042). The two tables have the same shape but for the key's name, so every statement is
 * written once, over the pair.
 */
const LEASE_TABLES = {
  workspace: { table: 'import_leases', key: 'account_id' },
  person: { table: 'import_person_leases', key: 'person_id' },
} as const;

/**
 * One row a workspace and one a person while their import runs: shared by every instance on
 * the database.
 */
export class SqlImportLeases implements ImportLeases {
  constructor(private readonly db: Kysely<Database>) {}

  async take(subject: LeaseSubject, holder: string, now: number, until: number): Promise<boolean> {
    const { table, key } = LEASE_TABLES[subject.kind];
    // One statement on either engine: a row past its time is taken over, a live one left alone.
    const row = await this.db
      .insertInto(table)
      .values({ [key]: subject.id, holder, lease_until: until })
      .onConflict((oc) =>
        oc.column(key).doUpdateSet({ holder, lease_until: until }).where(`${table}.lease_until`, '<', now),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  async extend(subject: LeaseSubject, holder: string, until: number): Promise<boolean> {
    const { table, key } = LEASE_TABLES[subject.kind];
    const result = await this.db
      .updateTable(table)
      .set({ lease_until: until })
      .where(key, '=', subject.id)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(subject: LeaseSubject, holder: string): Promise<void> {
    const { table, key } = LEASE_TABLES[subject.kind];
    await this.db.deleteFrom(table).where(key, '=', subject.id).where('holder', '=', holder).execute();
  }
}
