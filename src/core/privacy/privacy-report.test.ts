import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrivacyReport, type PrivacySettings } from './privacy-report.ts';
import { PEOPLE_TABLES, VISITOR_TABLES } from './data-tables.ts';

const SETTINGS: PrivacySettings = { clickRetentionDays: 90, auditRetentionDays: 365, pixelConsent: 'ask' };
const noCounts = { count: async () => ({}) };

test('the retention days come from the settings; 0 keeps the clicks for ever, and the click id with them', () => {
  const kept = new PrivacyReport(SETTINGS, noCounts).notice();
  assert.deepEqual(kept.tables.find((t) => t.table === 'clicks')?.retention, {
    days: 90,
    text: 'deleted after 90 days (CLICK_RETENTION_DAYS)',
  });
  assert.deepEqual(kept.tables.find((t) => t.table === 'click_visitors')?.retention, {
    days: 2,
    text: 'deleted after 2 days',
  });
  assert.equal(kept.parameters[0]?.valid_days, 90);
  const forever = new PrivacyReport({ ...SETTINGS, clickRetentionDays: 0 }, noCounts).notice();
  assert.deepEqual(forever.tables.find((t) => t.table === 'clicks')?.retention, {
    days: null,
    text: 'kept for ever (CLICK_RETENTION_DAYS)',
  });
  assert.equal(forever.parameters[0]?.valid_days, null);
});

test('the consent cookie is told only where a consent page is asked', () => {
  const names = (pixelConsent: PrivacySettings['pixelConsent']) =>
    new PrivacyReport({ ...SETTINGS, pixelConsent }, noCounts).notice().cookies.map((c) => c.name);
  assert.deepEqual(names('ask'), ['lp_v<link id>', 'lp_consent', 'lp_unlock_<link id>', 'lpx_stats_<link id>']);
  assert.ok(!names('implied').includes('lp_consent'));
  assert.ok(!names('never').includes('lp_consent'));
});

test('the inventory: every described table once, with the count the store gave (0 when it gave none)', async () => {
  const asked: string[][] = [];
  const report = new PrivacyReport(SETTINGS, {
    count: async (tables) => {
      asked.push([...tables]);
      return { clicks: 12, accounts: 3 };
    },
  });
  const rows = await report.inventory();
  const all = [...VISITOR_TABLES, ...PEOPLE_TABLES].map((t) => t.table);
  assert.deepEqual(asked, [all]);
  assert.deepEqual(
    rows.map((r) => r.table),
    all,
  );
  assert.equal(rows.find((r) => r.table === 'clicks')?.rows, 12);
  assert.equal(rows.find((r) => r.table === 'sessions')?.rows, 0);
  assert.equal(rows.find((r) => r.table === 'audit_entries')?.retention.days, 365);
});
