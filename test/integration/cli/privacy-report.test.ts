// `linkpix privacy report`: what /privacy and /admin/data tell, as JSON, from the configuration
// the CLI runs with and the rows of its database; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngineWithCli } from '../../support/cli.ts';
import { PEOPLE_TABLES, VISITOR_TABLES } from '../../../src/core/privacy/data-tables.ts';

interface Row {
  table: string;
  subject: string;
  rows: number;
  retention: { days: number | null; text: string };
}

onEachEngineWithCli(
  'linkpix privacy report',
  ({ cli }) => {
    test('the notice, the settings read and every table with its rows and retention', async () => {
      const made = await cli('users', 'create', '--email', 'privacy-cli@example.com');
      assert.equal(made.code, 0, made.stderr);
      const ran = await cli('privacy', 'report');
      assert.equal(ran.code, 0, ran.stderr);
      const report = JSON.parse(ran.stdout);
      assert.deepEqual(report.settings, { clickRetentionDays: 30, auditRetentionDays: 365, pixelConsent: 'never' });
      const tables = report.tables as Row[];
      assert.deepEqual(
        tables.map((t) => t.table),
        [...VISITOR_TABLES, ...PEOPLE_TABLES].map((t) => t.table),
      );
      const byName = new Map(tables.map((t) => [t.table, t]));
      assert.deepEqual(byName.get('clicks')?.retention, {
        days: 30,
        text: 'deleted after 30 days (CLICK_RETENTION_DAYS)',
      });
      assert.equal(byName.get('clicks')?.subject, 'visitors');
      assert.ok((byName.get('accounts')?.rows ?? 0) >= 1, 'the account just made is counted');
      assert.ok((byName.get('api_keys')?.rows ?? 0) >= 1);
      assert.deepEqual(
        report.visitors.parameters.map((p: { name: string; valid_days: number }) => [p.name, p.valid_days]),
        [['lpx_cid', 30]],
      );
      // PIXEL_CONSENT=never: no consent page, so no consent cookie to tell of.
      const cookies = report.visitors.cookies.map((c: { name: string }) => c.name);
      assert.ok(!cookies.includes('lp_consent'));
      assert.ok(cookies.includes('lp_unlock_<link id>'));
    });
  },
  { CLICK_RETENTION_DAYS: '30', PIXEL_CONSENT: 'never' },
);
