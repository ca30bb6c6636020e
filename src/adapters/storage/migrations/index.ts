import { inspect } from 'node:util';
import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Engine } from '../connect.ts';
import * as initial from './0001-initial.ts';
import * as clicks from './0002-clicks.ts';
import * as stats from './0003-stats.ts';
import * as appendOnlyClicks from './0004-clicks-append-only.ts';
import * as domainVerification from './0005-domain-verification.ts';
import * as webAccounts from './0006-web-accounts.ts';
import * as linkTakedown from './0007-link-takedown.ts';
import * as rollupTotalsByDay from './0008-rollup-totals-by-day.ts';
import * as linkSearch from './0009-link-search.ts';
import * as accountClickDays from './0010-account-click-days.ts';
import * as sharedStateFallback from './0011-shared-state-fallback.ts';
import * as webhooks from './0012-webhooks.ts';
import * as clickRecovery from './0013-click-recovery.ts';
import * as accountLinkCounts from './0014-account-link-counts.ts';
import * as linkExpiryTold from './0015-link-expiry-told.ts';
import * as linkCountsByExpiry from './0016-link-counts-by-expiry.ts';
import * as linkSearchPrefix from './0017-link-search-prefix.ts';
import * as linkSearchPrefixExact from './0018-link-search-prefix-exact.ts';
import * as rollupMonths from './0019-rollup-months.ts';
import * as accountEmailsNfc from './0020-account-emails-nfc.ts';
import * as importLeases from './0021-import-leases.ts';
import * as tags from './0022-tags.ts';
import * as utmTemplates from './0023-utm-templates.ts';
import * as linkQrLogos from './0024-link-qr-logos.ts';
import * as linkRules from './0025-link-rules.ts';
import * as workspaces from './0026-workspaces.ts';
import * as twoFactorAndResets from './0027-two-factor-and-resets.ts';
import * as appLinks from './0028-app-links.ts';
import * as auditEntries from './0030-audit-entries.ts';
import * as emailVerification from './0031-email-verification.ts';
import * as ssoIdentities from './0032-sso-identities.ts';
import * as conversions from './0033-conversions.ts';
import * as rollupQuarters from './0034-rollup-quarters.ts';
import * as clicksByMonth from './0035-clicks-by-month.ts';
import * as accountDaysByTheWriter from './0036-account-days-by-the-writer.ts';
import * as clickIdsInBlocks from './0037-click-ids-in-blocks.ts';
import * as recentRollups from './0038-recent-rollups.ts';
import * as clicksFoundByTime from './0039-clicks-found-by-time.ts';
import * as linkClickCounts from './0040-link-click-counts.ts';
import * as clickCountsRoom from './0041-click-counts-room-for-every-update.ts';
import * as importPersonLeases from './0042-import-person-leases.ts';
import * as linkHealth from './0043-link-health.ts';
import * as linkHistory from './0044-link-history.ts';
import * as linkSchedules from './0045-link-schedules.ts';
import * as clickSpoolSegments from './0046-click-spool-segments.ts';
import * as historyTagsAndDigests from './0047-history-tags-and-digests.ts';
import * as integrations from './0048-integrations.ts';
import * as webhookFormat from './0049-webhook-format.ts';
import * as workspaceAnalytics from './0050-workspace-analytics.ts';
import * as socialCards from './0051-social-cards.ts';
import * as firstSteps from './0052-first-steps.ts';
import * as keptImports from './0053-kept-imports.ts';
import * as accountValueDays from './0054-account-value-days.ts';

interface EngineMigration {
  up(db: Kysely<unknown>, engine: Engine): Promise<void>;
  down(db: Kysely<unknown>, engine: Engine): Promise<void>;
}

/** Versioned and ordered by name; never edit one that has shipped, add the next. */
export const MIGRATIONS: Readonly<Record<string, EngineMigration>> = {
  '0001-initial': initial,
  '0002-clicks': clicks,
  '0003-stats': stats,
  '0004-clicks-append-only': appendOnlyClicks,
  '0005-domain-verification': domainVerification,
  '0006-web-accounts': webAccounts,
  '0007-link-takedown': linkTakedown,
  '0008-rollup-totals-by-day': rollupTotalsByDay,
  '0009-link-search': linkSearch,
  '0010-account-click-days': accountClickDays,
  '0011-shared-state-fallback': sharedStateFallback,
  '0012-webhooks': webhooks,
  '0013-click-recovery': clickRecovery,
  '0014-account-link-counts': accountLinkCounts,
  '0015-link-expiry-told': linkExpiryTold,
  '0016-link-counts-by-expiry': linkCountsByExpiry,
  '0017-link-search-prefix': linkSearchPrefix,
  '0018-link-search-prefix-exact': linkSearchPrefixExact,
  '0019-rollup-months': rollupMonths,
  '0020-account-emails-nfc': accountEmailsNfc,
  '0021-import-leases': importLeases,
  '0022-tags': tags,
  '0023-utm-templates': utmTemplates,
  '0024-link-qr-logos': linkQrLogos,
  '0025-link-rules': linkRules,
  '0026-workspaces': workspaces,
  '0027-two-factor-and-resets': twoFactorAndResets,
  '0028-app-links': appLinks,
  '0030-audit-entries': auditEntries,
  '0031-email-verification': emailVerification,
  '0032-sso-identities': ssoIdentities,
  '0033-conversions': conversions,
  '0034-rollup-quarters': rollupQuarters,
  '0035-clicks-by-month': clicksByMonth,
  '0036-account-days-by-the-writer': accountDaysByTheWriter,
  '0037-click-ids-in-blocks': clickIdsInBlocks,
  '0038-recent-rollups': recentRollups,
  '0039-clicks-found-by-time': clicksFoundByTime,
  '0040-link-click-counts': linkClickCounts,
  '0041-click-counts-room-for-every-update': clickCountsRoom,
  '0042-import-person-leases': importPersonLeases,
  '0043-link-health': linkHealth,
  '0044-link-history': linkHistory,
  '0045-link-schedules': linkSchedules,
  '0046-click-spool-segments': clickSpoolSegments,
  '0047-history-tags-and-digests': historyTagsAndDigests,
  '0048-integrations': integrations,
  '0049-webhook-format': webhookFormat,
  '0050-workspace-analytics': workspaceAnalytics,
  '0051-social-cards': socialCards,
  '0052-first-steps': firstSteps,
  '0053-kept-imports': keptImports,
  '0054-account-value-days': accountValueDays,
};

const CATALOG_RACES = new Set(['3F000', '42P01', '42703']);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Migrator is schema-agnostic
export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<string[]> {
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]) => [
      name,
      {
        up: (d: Kysely<unknown>) => m.up(d, engine),
        down: (d: Kysely<unknown>) => m.down(d, engine),
      },
    ]),
  );
  // Kysely looks for its own tables in every schema unless told which one: another schema's
  // kysely_migration_lock (a second app, a parallel test run) would be taken for ours.
  const schema =
    engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    // Kysely reads the catalog of every schema to find its own tables; a schema or table dropped
    // meanwhile by another tenant of the database (another app, a parallel test run) fails that
    // read (invalid schema name, undefined table, or undefined column: its pg_get_serial_sequence
    // looks each column up again by name). A migration runs in a transaction, so nothing was
    // applied: try again.
    if (attempt < 4 && CATALOG_RACES.has((error as { code?: string }).code ?? '')) continue;
    throw error instanceof Error ? error : new Error(inspect(error));
  }
}
