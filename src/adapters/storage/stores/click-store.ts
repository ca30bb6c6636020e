import type { Kysely } from 'kysely';
import type { ClickBatch, ClickStore } from '../../../core/clicks/ports.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import type { ClickStatements, LinkUpdate } from './click-statements.ts';
import { pgClickStatements } from './pg-click-statements.ts';
import { writeRollups } from './rollup-writes.ts';
import { sqliteClickStatements } from './sqlite-click-statements.ts';

/**
 * Rows, counters, rotation positions and statistics rollups of a batch in one transaction:
 * counts always match rows. Every writer takes its locks in one order — the batch's links by
 * id, then visitor marks and rollup rows by key — so instances writing to one PostgreSQL at
 * once wait for each other but never deadlock (docs/adr/0016).
 */
export class SqlClickStore implements ClickStore {
  private readonly statements: ClickStatements;

  constructor(private readonly db: Kysely<Database>, engine: Engine) {
    this.statements = engine === 'postgres' ? pgClickStatements : sqliteClickStatements;
  }

  async writeBatch(batch: ClickBatch): Promise<void> {
    const s = this.statements;
    await this.db.transaction().execute(async (trx) => {
      const ids = [...new Set(batch.clicks.map((c) => c.linkId))].sort((a, b) => a - b);
      // A link deleted while its clicks were buffered has no row to point at any more.
      const live = await s.lockLinks(trx, ids);
      const clicks = live.size === ids.length ? batch.clicks : batch.clicks.filter((c) => live.has(c.linkId));
      await s.insertClicks(trx, clicks);
      await s.updateLinks(trx, linkUpdates(batch, live));
      await writeRollups(trx, s, clicks);
    });
  }
}

/** One update per live link the batch counted or rotated, in id order. */
function linkUpdates({ counts, rotations }: ClickBatch, live: ReadonlySet<number>): LinkUpdate[] {
  const ids = new Set([...counts.keys(), ...rotations.keys()]);
  return [...ids].filter((id) => live.has(id)).sort((a, b) => a - b)
    .map((id) => ({ id, clicks: counts.get(id) ?? 0, rotation: rotations.get(id) ?? null }));
}
