import type { Kysely } from 'kysely';
import type { ImportLeases } from '../../import/import-slots.ts';
import type { Database } from '../schema.ts';

/** One row an account while its import runs (migration 0021): shared by every instance on the database. */
export class SqlImportLeases implements ImportLeases {
  constructor(private readonly db: Kysely<Database>) {}

  async take(accountId: number, holder: string, now: number, until: number): Promise<boolean> {
    // One statement on either engine: a row past its time is taken over, a live one left alone.
    const row = await this.db
      .insertInto('import_leases')
      .values({ account_id: accountId, holder, lease_until: until })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ holder, lease_until: until }).where('import_leases.lease_until', '<', now))
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  async extend(accountId: number, holder: string, until: number): Promise<void> {
    await this.db.updateTable('import_leases').set({ lease_until: until }).where('account_id', '=', accountId).where('holder', '=', holder).execute();
  }

  async release(accountId: number, holder: string): Promise<void> {
    await this.db.deleteFrom('import_leases').where('account_id', '=', accountId).where('holder', '=', holder).execute();
  }
}
