import type { Kysely } from 'kysely';
import type { Engine } from '../../src/adapters/storage/connect.ts';
import * as initial from '../../src/adapters/storage/migrations/0001-initial.ts';
import * as clicks from '../../src/adapters/storage/migrations/0002-clicks.ts';
import * as stats from '../../src/adapters/storage/migrations/0003-stats.ts';
import * as appendOnlyClicks from '../../src/adapters/storage/migrations/0004-clicks-append-only.ts';
import * as domainVerification from '../../src/adapters/storage/migrations/0005-domain-verification.ts';
import * as webAccounts from '../../src/adapters/storage/migrations/0006-web-accounts.ts';
import * as linkTakedown from '../../src/adapters/storage/migrations/0007-link-takedown.ts';
import * as rollupTotals from '../../src/adapters/storage/migrations/0008-rollup-totals-by-day.ts';
import * as linkSearch from '../../src/adapters/storage/migrations/0009-link-search.ts';
import * as accountClickDays from '../../src/adapters/storage/migrations/0010-account-click-days.ts';
import * as sharedStateFallback from '../../src/adapters/storage/migrations/0011-shared-state-fallback.ts';
import * as webhooks from '../../src/adapters/storage/migrations/0012-webhooks.ts';
import * as clickRecovery from '../../src/adapters/storage/migrations/0013-click-recovery.ts';

interface StepMigration {
  up(db: Kysely<unknown>, engine: Engine): Promise<void>;
}

const ORDERED: Array<[string, StepMigration]> = [
  ['0001', initial],
  ['0002', clicks],
  ['0003', stats],
  ['0004', appendOnlyClicks],
  ['0005', domainVerification],
  ['0006', webAccounts],
  ['0007', linkTakedown],
  ['0008', rollupTotals],
  ['0009', linkSearch],
  ['0010', accountClickDays],
  ['0011', sharedStateFallback],
  ['0012', webhooks],
  ['0013', clickRecovery],
];

/** The migrations up to and including `last` (its number), in order: a database as an older release left it. */
export function migrationsUpTo(last: string): StepMigration[] {
  const end = ORDERED.findIndex(([n]) => n === last);
  if (end < 0) throw new Error(`no migration ${last}`);
  return ORDERED.slice(0, end + 1).map(([, m]) => m);
}
