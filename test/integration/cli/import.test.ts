import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onEachEngineWithCli } from '../../support/cli.ts';
import { tuningEnv } from '../../support/test-tuning.ts';

const FIXTURES = new URL('../../fixtures/import/', import.meta.url);
const fixture = (name: string) => new URL(name, FIXTURES).pathname;

onEachEngineWithCli(
  'linkpix import',
  ({ cli, startServer }) => {
    before(async () => {
      assert.equal((await cli('users', 'create', '--email', 'imp@example.com')).code, 0);
    });

    test('a dry run, the import, then a re-run that creates nothing; the report per row on stdout', async () => {
      const dry = await cli('import', fixture('phpshort.sql'), '--email', 'imp@example.com', '--dry-run');
      assert.equal(dry.code, 0, dry.stderr);
      assert.deepEqual(JSON.parse(dry.stdout).counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 1 });
      const done = await cli('import', fixture('phpshort.sql'), '--email', 'imp@example.com');
      const report = JSON.parse(done.stdout);
      assert.equal(report.format, 'phpshort-sql');
      assert.equal(report.dry_run, false);
      assert.deepEqual(report.counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 1 });
      assert.deepEqual(
        report.rows.map((r: { status: string; alias?: string; notes?: string[] }) => [
          r.status,
          r.alias,
          r.notes?.length ?? 0,
        ]),
        [
          ['created', 'php2', 2],
          ['error', undefined, 0],
        ],
        'listed: a row created with notes (its password left behind), a row in error; not the plain created one',
      );
      assert.equal(done.stderr, '', 'no progress line when stderr is not a terminal');
      const again = await cli(
        'import',
        fixture('phpshort.csv'),
        '--email',
        'imp@example.com',
        '--format',
        'phpshort-csv',
      );
      assert.deepEqual(JSON.parse(again.stdout).counts, { created: 0, replaced: 0, renamed: 0, skipped: 2, error: 1 });
      const renamed = await cli(
        'import',
        fixture('phpshort.csv'),
        '--email',
        'imp@example.com',
        '--on-conflict=rename',
      );
      assert.deepEqual(JSON.parse(renamed.stdout).counts, {
        created: 0,
        replaced: 0,
        renamed: 2,
        skipped: 0,
        error: 1,
      });
    });

    test('--strict refuses a file without its alias column; another import of the account or of the person running refuses the command', async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'linkpix-import-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const bare = join(dir, 'bitly.csv');
      writeFileSync(bare, 'long_url,title\nhttps://example.com/strict,Strict\n');
      const strict = await cli('import', bare, '--email', 'imp@example.com', '--format', 'bitly-csv', '--strict');
      assert.equal(strict.code, 1);
      assert.match(
        strict.stderr,
        /^file: The file has no alias column \(bitly-csv reads it from bitlink, Short link, link\)/,
      );
      const told = await cli('import', bare, '--email', 'imp@example.com', '--format', 'bitly-csv', '--dry-run');
      assert.equal(told.code, 0, told.stderr);
      assert.match(JSON.parse(told.stdout).warnings[0], /no alias column/);
      const server = await startServer();
      try {
        const db = server.server.container.storage.db;
        const { id } = await db
          .selectFrom('accounts')
          .select('id')
          .where('email', '=', 'imp@example.com')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('import_leases')
          .values({ account_id: id, holder: 'a-server', lease_until: Date.now() + 60_000 })
          .execute();
        const busy = await cli('import', bare, '--email', 'imp@example.com', '--format', 'bitly-csv');
        assert.equal(busy.code, 1);
        assert.equal(busy.stderr.trim(), 'An import of this account is running; try again once it has finished.');
        await db.deleteFrom('import_leases').where('account_id', '=', id).execute();
        // The person's import runs in another workspace: the command refuses too (migration 0042).
        await db
          .insertInto('import_person_leases')
          .values({ person_id: id, holder: 'a-server', lease_until: Date.now() + 60_000 })
          .execute();
        const personBusy = await cli('import', bare, '--email', 'imp@example.com', '--format', 'bitly-csv');
        assert.equal(personBusy.code, 1);
        assert.equal(
          personBusy.stderr.trim(),
          'This person is running an import already (in this or another workspace); try again once it has finished.',
        );
        await db.deleteFrom('import_person_leases').where('person_id', '=', id).execute();
      } finally {
        await server.close();
      }
    });

    test('--workspace ID imports into a team workspace the person may import in; a viewer there is refused', async () => {
      const owner = JSON.parse((await cli('users', 'create', '--email', 'imp-owner@example.com')).stdout);
      const viewer = JSON.parse((await cli('users', 'create', '--email', 'imp-viewer@example.com')).stdout);
      const h = await startServer();
      try {
        const team = (await h.request('POST', '/api/v1/workspaces', { key: owner.api_key, json: { name: 'Imports' } }))
          .body.data;
        const invited = (
          await h.request('POST', `/api/v1/workspaces/${team.id}/invitations`, {
            key: owner.api_key,
            json: { email: 'imp-viewer@example.com', role: 'viewer' },
          })
        ).body.data;
        await h.request('POST', `/api/v1/invitations/${invited.token}/accept`, { key: viewer.api_key });
        const done = await cli(
          'import',
          fixture('generic.csv'),
          '--email',
          'imp-owner@example.com',
          '--workspace',
          String(team.id),
        );
        assert.equal(done.code, 0, done.stderr);
        const created = JSON.parse(done.stdout).counts.created;
        assert.ok(created > 0);
        const teamKey = (
          await h.request('POST', `/api/v1/workspaces/${team.id}/api-keys`, { key: owner.api_key, json: { name: 'k' } })
        ).body.data.key;
        assert.equal(
          (await h.request('GET', '/api/v1/links', { key: teamKey })).body.data.length,
          created,
          "the team's links",
        );
        assert.equal(
          (await h.request('GET', '/api/v1/links', { key: owner.api_key })).body.data.length,
          0,
          'none in the personal workspace',
        );
        const refused = await cli(
          'import',
          fixture('generic.csv'),
          '--email',
          'imp-viewer@example.com',
          '--workspace',
          String(team.id),
        );
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /editor/);
      } finally {
        await h.close();
      }
    });
    test('refused: a file over IMPORT_MAX_BYTES before it is read, a bad --on-conflict or --format, an unknown account', async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'linkpix-import-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const big = join(dir, 'big.csv');
      writeFileSync(big, `url\n${'https://example.com/x\n'.repeat(300)}`);
      const tooBig = await cli('import', big, '--email', 'imp@example.com');
      assert.equal(tooBig.code, 1);
      assert.match(tooBig.stderr, /file: The file is \d+ bytes; an import takes at most 4096/);
      const conflict = await cli(
        'import',
        fixture('generic.csv'),
        '--email',
        'imp@example.com',
        '--on-conflict=overwrite',
      );
      assert.match(conflict.stderr, /on-conflict: --on-conflict must be one of: skip, rename, replace/);
      const format = await cli('import', fixture('generic.csv'), '--email', 'imp@example.com', '--format', 'nope');
      assert.match(format.stderr, /format: The format must be one of/);
      const nobody = await cli('import', fixture('generic.csv'), '--email', 'nobody@example.com');
      assert.equal(nobody.code, 1);
      assert.match(nobody.stderr, /No such account/);
    });
  },
  tuningEnv({ IMPORT_MAX_BYTES: 4096 }),
);
