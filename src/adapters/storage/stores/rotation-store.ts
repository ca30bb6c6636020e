import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { RotationStore } from '../../../core/clicks/ports.ts';

/**
 * Rotation positions in the database while Redis is away (docs/design/outages.md): one upsert per visit,
 * atomic on either engine, so instances sharing the database keep one round-robin.
 */
export class SqlRotationStore implements RotationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async next(linkId: number, size: number, known: number): Promise<number> {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`rotation size must be a positive integer, got ${size}`);
    const last = Number.isInteger(known) ? known : -1;
    const first = (((last + 1) % size) + size) % size;
    const row = await this.db
      .insertInto('rotation_cursors')
      .values({ link_id: linkId, position: first })
      .onConflict((oc) =>
        oc.column('link_id').doUpdateSet({ position: sql<number>`(rotation_cursors.position + 1) % ${size}` }),
      )
      .returning('position')
      .executeTakeFirstOrThrow();
    return Number(row.position);
  }

  async take(linkId: number): Promise<number | null> {
    const row = await this.db
      .deleteFrom('rotation_cursors')
      .where('link_id', '=', linkId)
      .returning('position')
      .executeTakeFirst();
    return row ? Number(row.position) : null;
  }
}
