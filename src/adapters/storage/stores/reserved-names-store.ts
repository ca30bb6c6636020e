import type { Kysely } from 'kysely';
import type { ReservedNames } from '../../../core/domains/reserved-names.ts';
import type { Database } from '../schema.ts';

export class SqlReservedNames implements ReservedNames {
  constructor(private readonly db: Kysely<Database>) {}

  async isReserved(name: string) {
    return (
      (await this.db.selectFrom('reserved_domains').select('name').where('name', '=', name).executeTakeFirst()) !==
      undefined
    );
  }

  async reserve(name: string, now: number) {
    const result = await this.db
      .insertInto('reserved_domains')
      .values({ name, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unreserve(name: string) {
    const result = await this.db.deleteFrom('reserved_domains').where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
