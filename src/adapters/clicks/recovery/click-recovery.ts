import type { Kysely, Transaction } from 'kysely';
import { recoverSums } from './recovered-clicks.ts';
import type { Engine } from '../../storage/connect.ts';
import type { Database } from '../../storage/schema.ts';
import type { ClickStatements, KeptLinks, LinkUpdate } from '../writer/click-statements.ts';
import { recoveryStatements, type PendingBatch, type RecoveryStatements } from './click-recovery-statements.ts';
import { pgClickStatements } from '../postgres/pg-click-statements.ts';
import { writeRollups } from '../writer/rollup-writes.ts';
import { sqliteClickStatements } from '../sqlite/sqlite-click-statements.ts';
import { recoveryDue } from '../../storage/stores/recovery-due.ts';

// Batches claimed per transaction: a writer's window of heavy traffic is tens of batches of
// up to thousands of clicks each; a few at a time keep each transaction short.
const BATCHES_PER_CLAIM = 4;

export interface Recovered {
  batches: number;
  clicks: number;
}

/**
 * Rolls up and counts, inside the caller's transaction, the click rows of batches whose records
 * it has deleted there: the rollups and `links.clicks` their writer's window would have written
 * (but `unique`), and so not the clicks of links with a click cap, counted with their rows
 * (docs/design/clicks.md; a cap set or cleared since they were written is taken as it is now). Deleting the record and
 * writing what it stood for in one transaction is what makes it exactly once. `rotations`: positions to write with the
 * counters (a writer's own window, dropped for this). Answers how many click rows it rolled up.
 */
export async function rollUpWritten(
  trx: Transaction<Database>,
  statements: ClickStatements,
  recovery: RecoveryStatements,
  batches: readonly PendingBatch[],
  rotations: ReadonlyMap<number, number> = new Map(),
): Promise<number> {
  const written = await recovery.writtenClicks(trx, batches);
  const { window, counts } = recoverSums(written);
  const ids = [...new Set([...window.linkIds(), ...rotations.keys()])].sort((a, b) => a - b);
  if (ids.length === 0) return 0;
  const live = await statements.keepLinks(trx, ids);
  await writeRollups(trx, statements, window, live);
  await statements.countWindow(trx, linkUpdates({ counts: uncapped(counts, live), rotations }, live));
  return written.length;
}

/** The counts of the kept links without a click cap: those the window writes. */
export function uncapped(counts: ReadonlyMap<number, number>, kept: KeptLinks): Map<number, number> {
  return new Map([...counts].filter(([id]) => kept.get(id) === false));
}

/** The counts of the kept links with a click cap: those written with their rows. */
export function capped(counts: ReadonlyMap<number, number>, kept: KeptLinks): Map<number, number> {
  return new Map([...counts].filter(([id]) => kept.get(id) === true));
}

/** One update per live link counted or rotated, in id order (the order every writer locks them in). */
export function linkUpdates(
  { counts, rotations }: { counts: ReadonlyMap<number, number>; rotations: ReadonlyMap<number, number> },
  live: KeptLinks,
): LinkUpdate[] {
  const ids = new Set([...counts.keys(), ...rotations.keys()]);
  return [...ids]
    .filter((id) => live.has(id))
    .sort((a, b) => a - b)
    .map((id) => ({ id, clicks: counts.get(id) ?? 0, rotation: rotations.get(id) ?? null }));
}

/**
 * The click writers' leases, and the recovery of batches a writer left written but not rolled
 * up when it died (docs/design/clicks.md). Every instance renews its own lease and, now and then,
 * claims the batches of writers whose lease ran out.
 */
export class SqlClickRecovery {
  private readonly statements: ClickStatements;
  private readonly recovery: RecoveryStatements;

  constructor(
    private readonly db: Kysely<Database>,
    engine: Engine,
  ) {
    this.statements = engine === 'postgres' ? pgClickStatements : sqliteClickStatements;
    this.recovery = recoveryStatements(engine);
  }

  async renew(owner: string, until: number): Promise<void> {
    await this.db
      .insertInto('click_writers')
      .values({ owner, lease_until: until })
      .onConflict((oc) => oc.column('owner').doUpdateSet({ lease_until: until }))
      .execute();
  }

  /** Ends the lease: what the owner left pending may be recovered at once. */
  async release(owner: string): Promise<void> {
    await this.db.deleteFrom('click_writers').where('owner', '=', owner).execute();
  }

  /** Rolls up every batch whose writer's lease ran out before `now`, a few per transaction. */
  async recover(now: number): Promise<Recovered> {
    const total: Recovered = { batches: 0, clicks: 0 };
    // Rounds nearly always find nothing: reads say so before any write asks for SQLite's lock.
    while (await recoveryDue(this.db, now)) {
      const done = await this.db.transaction().execute(async (trx) => {
        const batches = await this.recovery.claimExpired(trx, now, BATCHES_PER_CLAIM);
        return { batches: batches.length, clicks: await rollUpWritten(trx, this.statements, this.recovery, batches) };
      });
      if (done.batches === 0) break;
      total.batches += done.batches;
      total.clicks += done.clicks;
    }
    // Leases long gone with nothing left to recover are forgotten.
    const gone = await this.db
      .selectFrom('click_writers')
      .select('owner')
      .where('lease_until', '<', now)
      .limit(1)
      .executeTakeFirst();
    if (gone !== undefined) await this.db.deleteFrom('click_writers').where('lease_until', '<', now).execute();
    return total;
  }
}
