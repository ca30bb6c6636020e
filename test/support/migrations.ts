import type { Kysely } from 'kysely';
import type { Engine } from '../../src/adapters/storage/connect.ts';
import { MIGRATIONS } from '../../src/adapters/storage/migrations/index.ts';

interface StepMigration {
  up(db: Kysely<unknown>, engine: Engine): Promise<void>;
}

/** The migrations up to and including `last` (its number), in order: a database as an older release left it. */
export function migrationsUpTo(last: string): StepMigration[] {
  const ordered = Object.entries(MIGRATIONS).sort(([a], [b]) => a.localeCompare(b));
  const end = ordered.findIndex(([name]) => name.startsWith(`${last}-`));
  if (end < 0) throw new Error(`no migration ${last}`);
  return ordered.slice(0, end + 1).map(([, m]) => m);
}
