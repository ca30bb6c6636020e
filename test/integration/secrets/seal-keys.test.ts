// The key that seals secrets at rest (issue 48, docs/design/secrets.md), on both engines: seeds
// sealed under the database's key move to SEAL_KEY (or the key file) at the first start with
// one, and the database's key goes, once however many instances start at once; a key that
// cannot open them fails the start, naming what; a rotation reseals everything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { sqlOwners } from '../../contracts/sql-owners.ts';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import { SealKeyError, SealKeys, type SealKeySource } from '../../../src/adapters/secrets/seal-keys.ts';
import { newSealKeyText, sealKeyOf } from '../../../src/adapters/secrets/seal-key.ts';
import { SecretBox } from '../../../src/adapters/secrets/secret-box.ts';
import { SqlTwoFactorStore } from '../../../src/adapters/storage/stores/two-factor-store.ts';

const SEED = 'JBSWY3DPEHPK3PXP';

function holder(storage: Storage, source: SealKeySource, warnings: string[] = []) {
  const keys = new SealKeys({
    db: storage.db,
    engine: storage.engine,
    source,
    warn: (line) => warnings.push(line),
    clock: { now: () => 5000 },
  });
  return { keys, store: new SqlTwoFactorStore(storage.db, new SecretBox(keys)) };
}

/** A fresh database's state for each test: every seed and the database key gone. */
async function clean(storage: Storage): Promise<void> {
  await storage.db.deleteFrom('user_totp').execute();
  await storage.db.deleteFrom('audit_entries').where('action', '=', 'account.two_factor_disabled').execute();
  await storage.db.deleteFrom('app_secrets').where('name', '=', 'totp-seal').execute();
}

const sealedOf = async (storage: Storage, userId: number) =>
  (
    await storage.db
      .selectFrom('user_totp')
      .select('secret_box')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
  ).secret_box;
const databaseKeyRows = async (storage: Storage) =>
  (await storage.db.selectFrom('app_secrets').select('name').where('name', '=', 'totp-seal').execute()).length;

onEachSqlEngine('seal keys', (storage) => {
  test('the first start with SEAL_KEY reseals the seeds of the database key under it (the key goes with them on SQLite, stays on PostgreSQL); four starts at once move them once', async () => {
    const s = storage();
    await clean(s);
    const before = holder(s, { kind: 'database' });
    const ids = [await sqlOwners(s.db).account(), await sqlOwners(s.db).account()];
    for (const id of ids) await before.store.start(id, SEED, 1000);
    assert.match(await sealedOf(s, ids[0]!), /^v1\./, 'under the database key');
    assert.equal(await databaseKeyRows(s), 1);

    const key = newSealKeyText();
    const starts = Array.from({ length: 4 }, () => holder(s, { kind: 'env', keys: [key] }));
    const ready = await Promise.all(starts.map((h) => h.keys.ready()));
    assert.equal(
      ready.reduce((n, r) => n + r.resealed, 0),
      2,
      'each seed moved once',
    );
    assert.deepEqual(new Set(ready.map((r) => r.sealing)), new Set([sealKeyOf(key).id]));
    for (const id of ids) {
      assert.match(await sealedOf(s, id), new RegExp(`^v2\\.${sealKeyOf(key).id}\\.`));
      assert.equal((await starts[3]!.store.find(id))?.secret, SEED);
    }
    // One process serves a SQLite file; PostgreSQL's instances of the previous version may still seal under it.
    assert.equal(
      await databaseKeyRows(s),
      s.engine === 'sqlite' ? 0 : 1,
      "on PostgreSQL the database's key stays until the operator forgets it",
    );
    const fresh = await sqlOwners(s.db).account();
    await starts[0]!.store.start(fresh, SEED, 2000);
    assert.match(await sealedOf(s, fresh), /^v2\./, 'new seeds are sealed under SEAL_KEY');
  });

  test('a wrong SEAL_KEY, or none once the seeds left the database key, fails the start with a message naming the key; nothing is changed', async () => {
    const s = storage();
    await clean(s);
    const right = newSealKeyText();
    const id = await sqlOwners(s.db).account();
    await holder(s, { kind: 'env', keys: [right] }).store.start(id, SEED, 1000);
    const sealed = await sealedOf(s, id);
    const wrong = holder(s, { kind: 'env', keys: [newSealKeyText()] });
    await assert.rejects(wrong.keys.ready(), (e: unknown) => {
      assert.ok(e instanceof SealKeyError);
      assert.match(
        e.message,
        new RegExp(
          `^SEAL_KEY cannot open the secrets sealed at rest \\(two-factor seeds, integrations' secrets\\): 1 sealed under key ${sealKeyOf(right).id}\\.`,
        ),
      );
      assert.match(e.message, /Set SEAL_KEY to the key they were sealed with/);
      return true;
    });
    await assert.rejects(wrong.store.find(id), SealKeyError, 'nor is anything opened later');
    await assert.rejects(
      holder(s, { kind: 'database' }).keys.ready(),
      (e: unknown) =>
        e instanceof SealKeyError &&
        /^SEAL_KEY is not set, and the database's key cannot open the secrets sealed at rest \(two-factor seeds, integrations' secrets\): 1 sealed under key /.test(
          e.message,
        ),
    );
    assert.equal(await sealedOf(s, id), sealed);
    assert.equal(await databaseKeyRows(s), 0, 'no database key made by the refused start');
  });

  test('a key lost for good: forget-lost deletes the seeds under the named key or (all) those no key opens, with their recovery codes and an audit entry each by the CLI; never when nothing opens', async () => {
    const s = storage();
    await clean(s);
    const [lostKey, keptKey] = [newSealKeyText(), newSealKeyText()];
    const [gone, enrolling, kept] = [
      await sqlOwners(s.db).account(),
      await sqlOwners(s.db).account(),
      await sqlOwners(s.db).account(),
    ];
    const before = holder(s, { kind: 'env', keys: [lostKey] });
    await before.store.start(gone, SEED, 1000);
    await before.store.confirm(gone, 1, ['c1', 'c2'], 1000);
    await before.store.start(enrolling, SEED, 1000);

    // A shell whose SEAL_KEY is not the server's: no seed opens, so `all` deletes nothing.
    const wrongShell = holder(s, { kind: 'env', keys: [newSealKeyText()] });
    await assert.rejects(
      wrongShell.keys.forgetLost({ all: true }),
      (e: unknown) =>
        e instanceof SealKeyError &&
        /^No sealed secret opens under the keys at hand .*Nothing was deleted.*--key-id /.test(e.message),
    );
    assert.equal((await before.store.find(gone))?.secret, SEED, 'nothing deleted');
    await assert.rejects(wrongShell.keys.forgetLost({ keyIds: ['nokey'] }), /No secret is sealed under key nokey/);
    await assert.rejects(
      before.keys.forgetLost({ keyIds: [sealKeyOf(lostKey).id] }),
      (e: unknown) => e instanceof SealKeyError && /is at hand/.test(e.message),
      'a key named as lost but at hand',
    );

    await holder(s, { kind: 'env', keys: [keptKey, lostKey] }).store.start(kept, SEED, 2000);
    const now = holder(s, { kind: 'env', keys: [keptKey] });
    await assert.rejects(
      now.keys.ready(),
      (e: unknown) => e instanceof SealKeyError && e.message.includes(`forget-lost --key-id ${sealKeyOf(lostKey).id}`),
    );
    const lost = await now.keys.forgetLost({ all: true });
    assert.deepEqual(
      lost.map((r) => [r.column.what, Number(r.key)]).sort(),
      [
        ['two-factor', gone],
        ['two-factor', enrolling],
      ].sort(),
    );
    assert.equal(await now.store.find(gone), null);
    assert.equal(await now.store.recoveryCodesLeft(gone), 0);
    assert.equal((await now.store.find(kept))?.secret, SEED, 'the seed the key at hand opens stays');
    const entries = await s.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('action', '=', 'account.two_factor_disabled')
      .execute();
    assert.deepEqual(
      entries.map((e) => [
        e.workspace_id,
        e.user_id,
        e.key_id,
        e.via,
        e.target_type,
        e.target_id,
        JSON.parse(e.changes) as unknown,
        Number(e.at),
      ]),
      [[gone, null, null, 'cli', 'account', gone, { two_factor: [true, false], recovery_codes: 'changed' }, 5000]],
      'one entry for the person whose two-factor was on, by the CLI (an enrolment not finished was not on)',
    );
    assert.equal((await now.keys.ready()).resealed, 0, 'the start passes now');
  });

  test('forget-lost naming the lost key deletes its seeds even when no seed opens (every key lost)', async () => {
    const s = storage();
    await clean(s);
    const lostKey = newSealKeyText();
    const id = await sqlOwners(s.db).account();
    await holder(s, { kind: 'env', keys: [lostKey] }).store.start(id, SEED, 1000);
    const now = holder(s, { kind: 'env', keys: [newSealKeyText()] });
    const lost = await now.keys.forgetLost({ keyIds: [sealKeyOf(lostKey).id] });
    assert.deepEqual(
      lost.map((r) => Number(r.key)),
      [id],
    );
    assert.equal((await now.keys.ready()).resealed, 0);
  });

  test('a rolling upgrade: an instance still on the database key seals a seed after a new one started with SEAL_KEY; the new ones open it, the next start moves it, and the key is forgotten only by the command, once nothing needs it', async (t) => {
    const s = storage();
    if (s.engine === 'sqlite') return t.skip('one process serves a SQLite file: no rolling upgrade');
    await clean(s);
    const old = holder(s, { kind: 'database' });
    await old.keys.ready();
    const key = newSealKeyText();
    const first = holder(s, { kind: 'env', keys: [key] });
    await first.keys.ready();
    assert.equal(await databaseKeyRows(s), 1, 'the database key stays for the instances not yet upgraded');
    const late = await sqlOwners(s.db).account();
    await old.store.start(late, SEED, 1000);
    assert.match(await sealedOf(s, late), /^v1\./);
    assert.equal((await first.store.find(late))?.secret, SEED, 'a new instance opens it');
    await assert.rejects(
      first.keys.forgetDatabaseKey(),
      (e: unknown) =>
        e instanceof SealKeyError && /^1 secret\(s\) are still sealed under the database's key/.test(e.message),
    );
    const second = holder(s, { kind: 'env', keys: [key] });
    assert.equal((await second.keys.ready()).resealed, 1, 'the next start moves it');
    assert.match(await sealedOf(s, late), new RegExp(`^v2\\.${sealKeyOf(key).id}\\.`));
    assert.equal(await second.keys.forgetDatabaseKey(), true);
    assert.equal(await databaseKeyRows(s), 0);
    assert.equal(await second.keys.forgetDatabaseKey(), false, 'again: nothing to delete');
    assert.equal((await second.store.find(late))?.secret, SEED);
    await assert.rejects(
      old.store.start(await sqlOwners(s.db).account(), SEED, 2000),
      SealKeyError,
      'nothing more is sealed under a forgotten key',
    );
    await assert.rejects(old.keys.forgetDatabaseKey(), /SEAL_KEY is not set/);
  });

  test('check changes nothing: it opens one seed per key and says what the next start would move', async () => {
    const s = storage();
    await clean(s);
    const id = await sqlOwners(s.db).account();
    await holder(s, { kind: 'database' }).store.start(id, SEED, 1000);
    const sealed = await sealedOf(s, id);
    const key = newSealKeyText();
    const checking = holder(s, { kind: 'env', keys: [key] });
    assert.deepEqual(await checking.keys.check(), {
      source: 'env',
      sealing: sealKeyOf(key).id,
      sealed: { database: 1 },
      toReseal: 1,
      databaseKey: true,
    });
    assert.equal(await sealedOf(s, id), sealed, 'the seed is where it was');
    await assert.rejects(holder(s, { kind: 'env', keys: [key] }).keys.forgetDatabaseKey(), SealKeyError);
    const path = join(mkdtempSync(join(tmpdir(), 'linkpix-seal-')), 'linkpix.db.seal-key');
    assert.deepEqual(await holder(s, { kind: 'file', path }).keys.check(), {
      source: 'file',
      sealing: null,
      sealed: { database: 1 },
      toReseal: 1,
      databaseKey: true,
      fileMissing: true,
    });
    assert.ok(!existsSync(path), 'no key file made by a check');
  });

  test('a key file gone: a running server keeps its keys and says so; a start with seeds sealed under it fails and makes none', async () => {
    const s = storage();
    await clean(s);
    const path = join(mkdtempSync(join(tmpdir(), 'linkpix-seal-')), 'linkpix.db.seal-key');
    const warnings: string[] = [];
    const running = holder(s, { kind: 'file', path }, warnings);
    await running.keys.ready();
    const key = readFileSync(path, 'utf8').trim();
    const id = await sqlOwners(s.db).account();
    await running.store.start(id, SEED, 1000);
    rmSync(path);
    const second = await sqlOwners(s.db).account();
    await running.store.start(second, SEED, 2000);
    assert.ok(!existsSync(path), 'a re-read never makes the file');
    assert.ok(
      warnings.some((w) => w.startsWith(`the seal key file ${path} is missing: the keys read before are kept`)),
      warnings.join('\n'),
    );
    assert.match(
      await sealedOf(s, second),
      new RegExp(`^v2\\.${sealKeyOf(key).id}\\.`),
      'sealed under the key read before',
    );
    assert.equal((await running.store.find(id))?.secret, SEED);
    await assert.rejects(
      holder(s, { kind: 'file', path }).keys.ready(),
      (e: unknown) =>
        e instanceof SealKeyError &&
        e.message ===
          `The seal key file ${path} is missing: copy it from where the database was (or set SEAL_KEY). Nothing was changed.`,
    );
    await assert.rejects(
      holder(s, { kind: 'file', path }).keys.check(),
      /is missing: copy it from where the database was/,
    );
    assert.ok(!existsSync(path), 'nor does a start or a check');
  });

  test('rotation: with the new key first and the old one after it, every seed is resealed under the new; then the new key alone opens them', async () => {
    const s = storage();
    await clean(s);
    const [old, next] = [newSealKeyText(), newSealKeyText()];
    const id = await sqlOwners(s.db).account();
    await holder(s, { kind: 'env', keys: [old] }).store.start(id, SEED, 1000);
    const moving = holder(s, { kind: 'env', keys: [next, old] });
    assert.equal((await moving.store.find(id))?.secret, SEED, 'both keys open while moving');
    assert.deepEqual(await moving.keys.rotate(), { key: sealKeyOf(next).id, resealed: 1 });
    assert.deepEqual(
      await moving.keys.rotate(),
      { key: sealKeyOf(next).id, resealed: 0 },
      'again: nothing left to move',
    );
    const after = holder(s, { kind: 'env', keys: [next] });
    assert.equal((await after.store.find(id))?.secret, SEED);
    await assert.rejects(holder(s, { kind: 'env', keys: [old] }).keys.ready(), SealKeyError);
    await assert.rejects(
      holder(s, { kind: 'database' }).keys.rotate(),
      (e: unknown) => e instanceof SealKeyError && /SEAL_KEY is not set/.test(e.message),
    );
  });

  test('without SEAL_KEY on SQLite: a key file beside the database (0600, made once however many start at once), seeds moved to it; rotation writes a new one', async () => {
    const s = storage();
    await clean(s);
    const id = await sqlOwners(s.db).account();
    await holder(s, { kind: 'database' }).store.start(id, SEED, 1000);
    const path = join(mkdtempSync(join(tmpdir(), 'linkpix-seal-')), 'linkpix.db.seal-key');
    const starts = Array.from({ length: 4 }, () => holder(s, { kind: 'file', path }));
    const ready = await Promise.all(starts.map((h) => h.keys.ready()));
    assert.equal(new Set(ready.map((r) => r.sealing)).size, 1, 'one key, whoever made the file');
    assert.equal(
      ready.reduce((n, r) => n + r.resealed, 0),
      1,
    );
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const first = readFileSync(path, 'utf8').trim();
    assert.equal(sealKeyOf(first).id, ready[0]!.sealing);
    assert.equal(await databaseKeyRows(s), s.engine === 'sqlite' ? 0 : 1);

    const running = starts[0]!;
    const rotation = await holder(s, { kind: 'file', path }).keys.rotate();
    assert.equal(rotation.resealed, 1);
    const second = readFileSync(path, 'utf8').trim();
    assert.notEqual(second, first);
    assert.ok(!second.includes(','), 'the old key is dropped once nothing is sealed under it');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.match(await sealedOf(s, id), new RegExp(`^v2\\.${sealKeyOf(second).id}\\.`));
    assert.equal(
      (await running.store.find(id))?.secret,
      SEED,
      'a server started before the rotation reads the new file',
    );
    const later = await sqlOwners(s.db).account();
    await running.store.start(later, SEED, 2000);
    assert.match(
      await sealedOf(s, later),
      new RegExp(`^v2\\.${sealKeyOf(second).id}\\.`),
      'and seals under the new key',
    );
  });

  test('on PostgreSQL without SEAL_KEY: the database key, with one warning', async () => {
    const s = storage();
    await clean(s);
    const warnings: string[] = [];
    const h = holder(s, { kind: 'database' }, warnings);
    await Promise.all([h.keys.ready(), h.keys.ready()]);
    const id = await sqlOwners(s.db).account();
    await h.store.start(id, SEED, 1000);
    assert.equal((await h.store.find(id))?.secret, SEED);
    assert.deepEqual(
      warnings,
      s.engine === 'postgres'
        ? [
            'SEAL_KEY is not set: the key that seals two-factor secrets is kept in the database beside them. Set SEAL_KEY on every instance (docs/operations.md).',
          ]
        : [],
    );
  });
});
