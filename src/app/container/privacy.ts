import { PrivacyReport } from '../../core/privacy/privacy-report.ts';
import { SqlTableCounts } from '../../adapters/storage/stores/table-counts.ts';
import type { Base } from './base.ts';

/** The privacy report reads the settings in force, so /privacy tells the days this instance keeps. */
export function privacyOf({ config, tuning, storage }: Base): PrivacyReport {
  return new PrivacyReport(
    {
      clickRetentionDays: config.CLICK_RETENTION_DAYS,
      auditRetentionDays: tuning.AUDIT_RETENTION_DAYS,
      pixelConsent: config.PIXEL_CONSENT,
    },
    new SqlTableCounts(storage.db),
  );
}
