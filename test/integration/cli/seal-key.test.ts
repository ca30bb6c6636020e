// `linkpix seal-key new | check | rotate | forget-lost | forget-database-key` (issue 48, docs/operations.md "SEAL_KEY"), on both
// engines: moving several instances from one key to another, and what each step refuses.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { runCli } from '../../../src/app/cli.ts';
import { loadConfig } from '../../../src/app/config.ts';
import { createContainer } from '../../../src/app/container.ts';
import { sqlitePath } from '../../../src/adapters/storage/connect.ts';
import { SecretBox } from '../../../src/adapters/secrets/secret-box.ts';
import { SqlTwoFactorStore } from '../../../src/adapters/storage/stores/two-factor-store.ts';
import { sealKeyOf } from '../../../src/adapters/secrets/seal-key.ts';
import { ENGINES } from '../../support/harness.ts';
import { cliDatabase } from '../../support/processes.ts';

const SEED = 'JBSWY3DPEHPK3PXP';

async function cli(env: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { ...env, LOG_LEVEL: 'silent' },
    { input: Readable.from([]), out: (t) => out.push(t), err: (t) => err.push(t), progress: null },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A person with two-factor, sealed by a container on `env` (as the server would). */
async function enrolled(
  env: Record<string, string>,
): Promise<{ id: number; find: (env: Record<string, string>) => Promise<string | undefined> }> {
  const container = createContainer(loadConfig({ ...env, LOG_LEVEL: 'silent' }), { titles: null });
  let id: number;
  try {
    await container.migrate();
    id = (await container.accounts.createAccount({ email: `seal-${process.pid}-${Date.now()}@example.com` })).account
      .id;
    await new SqlTwoFactorStore(container.storage.db, new SecretBox(container.sealKeys)).start(id, SEED, 1000);
  } finally {
    await container.close();
  }
  return {
    id,
    find: async (other) => {
      const c = createContainer(loadConfig({ ...other, LOG_LEVEL: 'silent' }), { titles: null });
      try {
        return (await new SqlTwoFactorStore(c.storage.db, new SecretBox(c.sealKeys)).find(id))?.secret;
      } finally {
        await c.close();
      }
    },
  };
}

for (const engine of ENGINES) {
  describe(`linkpix CLI: seal-key [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let database: Awaited<ReturnType<typeof cliDatabase>>;
    before(async () => {
      database = await cliDatabase(engine.name);
    });
    after(() => database.cleanup());

    test('new prints a key; with old and new keys on every instance, rotate reseals under the new, check then passes on the new key alone and fails on the old', async () => {
      const made = await cli(database.env, 'seal-key', 'new');
      assert.equal(made.code, 0, made.err);
      const { seal_key: old, key_id: oldId } = JSON.parse(made.out) as { seal_key: string; key_id: string };
      assert.match(old, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(oldId, sealKeyOf(old).id);
      const next = (JSON.parse((await cli(database.env, 'seal-key', 'new')).out) as { seal_key: string }).seal_key;

      const person = await enrolled({ ...database.env, SEAL_KEY: old });
      const moving = { ...database.env, SEAL_KEY: `${next},${old}` };
      const rotated = await cli(moving, 'seal-key', 'rotate');
      assert.equal(rotated.code, 0, rotated.err);
      assert.deepEqual(JSON.parse(rotated.out), { key_id: sealKeyOf(next).id, resealed: 1 });
      const checked = await cli({ ...database.env, SEAL_KEY: next }, 'seal-key', 'check');
      assert.equal(checked.code, 0, checked.err);
      assert.deepEqual(JSON.parse(checked.out), {
        source: 'env',
        key_id: sealKeyOf(next).id,
        sealed: { [sealKeyOf(next).id]: 1 },
        to_reseal_at_start: 0,
        database_key: false,
      });
      assert.equal(await person.find({ ...database.env, SEAL_KEY: next }), SEED);

      const stale = await cli({ ...database.env, SEAL_KEY: old }, 'seal-key', 'check');
      assert.equal(stale.code, 1);
      assert.match(
        stale.err,
        new RegExp(
          `^SEAL_KEY cannot open the secrets sealed at rest \\(two-factor seeds, integrations' secrets\\): 1 sealed under key ${sealKeyOf(next).id}\\.`,
        ),
      );
      assert.match(
        stale.err,
        new RegExp(
          `\`linkpix seal-key forget-lost --key-id ${sealKeyOf(next).id}\` turns two-factor off for those people`,
        ),
      );
      // A shell whose SEAL_KEY is not the server's: nothing opens, so nothing is forgotten without naming the lost key.
      const unnamed = await cli({ ...database.env, SEAL_KEY: old }, 'seal-key', 'forget-lost');
      assert.equal(unnamed.code, 2);
      assert.match(unnamed.err, /^name the lost keys with --key-id ID\[,ID\]/);
      const blind = await cli({ ...database.env, SEAL_KEY: old }, 'seal-key', 'forget-lost', '--yes');
      assert.equal(blind.code, 1);
      assert.match(
        blind.err,
        /^No sealed secret opens under the keys at hand \(this shell's SEAL_KEY\).*Nothing was deleted/,
      );
      assert.equal(await person.find({ ...database.env, SEAL_KEY: next }), SEED, 'the seed is still there');
      // As if `next` were lost for good, with `old` the only key left: named, it is forgotten.
      const forgot = await cli(
        { ...database.env, SEAL_KEY: old },
        'seal-key',
        'forget-lost',
        '--key-id',
        sealKeyOf(next).id,
      );
      assert.equal(forgot.code, 0, forgot.err);
      assert.deepEqual(JSON.parse(forgot.out), { forgotten: [{ what: 'two-factor', id: person.id }] });
      assert.equal(
        (await cli({ ...database.env, SEAL_KEY: old }, 'seal-key', 'check')).code,
        0,
        'the start passes then',
      );

      const bad = await cli({ ...database.env, SEAL_KEY: 'not-a-key' }, 'seal-key', 'check');
      assert.equal(bad.code, 1);
      assert.match(bad.err, /SEAL_KEY \(its value not shown\): must be keys of 32 random bytes in base64url/);
      assert.ok(!bad.err.includes('not-a-key'), 'a key, even a wrong one, is never printed');
    });

    test(
      engine.name === 'sqlite'
        ? 'without SEAL_KEY, rotate writes a new key file and reseals under it'
        : 'without SEAL_KEY, rotate is refused: the key is in the database',
      async () => {
        const fresh = await cliDatabase(engine.name);
        try {
          const person = await enrolled(fresh.env);
          const rotated = await cli(fresh.env, 'seal-key', 'rotate');
          if (engine.name === 'postgres') {
            assert.equal(rotated.code, 1);
            assert.match(rotated.err, /^SEAL_KEY is not set: the seal key is kept in the database\./);
            return;
          }
          assert.equal(rotated.code, 0, rotated.err);
          const file = `${sqlitePath(fresh.env.DATABASE_URL!)}.seal-key`;
          assert.deepEqual(JSON.parse(rotated.out), {
            key_id: sealKeyOf(readFileSync(file, 'utf8').trim()).id,
            resealed: 1,
            file,
          });
          assert.equal(await person.find(fresh.env), SEED);
        } finally {
          await fresh.cleanup();
        }
      },
    );
  });
}

const postgres = ENGINES.find((e) => e.name === 'postgres');
test(
  'PostgreSQL: check with a new SEAL_KEY changes nothing; the start moves the seeds; forget-database-key only once nothing needs the key',
  { skip: !postgres || (postgres.skip ?? false) },
  async () => {
    const fresh = await cliDatabase('postgres');
    try {
      const person = await enrolled(fresh.env);
      const key = (JSON.parse((await cli(fresh.env, 'seal-key', 'new')).out) as { seal_key: string }).seal_key;
      const withKey = { ...fresh.env, SEAL_KEY: key };
      const checked = await cli(withKey, 'seal-key', 'check');
      assert.equal(checked.code, 0, checked.err);
      assert.deepEqual(JSON.parse(checked.out), {
        source: 'env',
        key_id: sealKeyOf(key).id,
        sealed: { database: 1 },
        to_reseal_at_start: 1,
        database_key: true,
      });
      assert.equal(
        JSON.parse((await cli(withKey, 'seal-key', 'check')).out).to_reseal_at_start,
        1,
        'still there: a check moves nothing',
      );
      const early = await cli(withKey, 'seal-key', 'forget-database-key');
      assert.equal(early.code, 1);
      assert.match(early.err, /^1 secret\(s\) are still sealed under the database's key/);
      const rotated = await cli(withKey, 'seal-key', 'rotate');
      assert.equal(rotated.code, 0, rotated.err);
      const forgot = await cli(withKey, 'seal-key', 'forget-database-key');
      assert.equal(forgot.code, 0, forgot.err);
      assert.deepEqual(JSON.parse(forgot.out), { database_key_deleted: true });
      assert.equal(await person.find(withKey), SEED);
    } finally {
      await fresh.cleanup();
    }
  },
);
