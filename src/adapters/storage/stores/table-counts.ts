import { sql, type Kysely } from 'kysely';
import type { TableCounts } from '../../../core/privacy/privacy-report.ts';
import type { Database } from '../schema.ts';

/**
 * Exact row counts of the tables the privacy description names (the operator's /admin/data and
 * `linkpix privacy report`): names come from that list only, never from a request.
 */
export class SqlTableCounts implements TableCounts {
  constructor(private readonly db: Kysely<Database>) {}

  async count(tables: readonly string[]): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of tables) {
      // PostgreSQL answers count(*) as a bigint string; both engines' answers read as a number.
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
        this.db,
      );
      counts[table] = Number(rows[0]?.n ?? 0);
    }
    return counts;
  }
}
