// The server's start and SEAL_KEY (issue 48, docs/design/secrets.md), on both engines: a key that
// cannot open the sealed two-factor seeds fails the start with a message saying so; on SQLite
// without SEAL_KEY the key is a file beside the database, made once and kept; on PostgreSQL
// without it, one warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES, startHarness, type Engine, type Harness, type HarnessOptions } from '../../support/harness.ts';
import { SealKeyError } from '../../../src/adapters/secrets/seal-keys.ts';
import { newSealKeyText } from '../../../src/adapters/secrets/seal-key.ts';
import { SecretBox } from '../../../src/adapters/secrets/secret-box.ts';
import { SqlTwoFactorStore } from '../../../src/adapters/storage/stores/two-factor-store.ts';

const SEED = 'JBSWY3DPEHPK3PXP';

/** Starts on one database again and again: a SQLite file of the test's, or the first start's PostgreSQL schema. */
function onOneDatabase(engine: Engine['name']) {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-seal-start-'));
  const file = join(dir, 'linkpix.db');
  let schema: string | undefined;
  const owners: Harness[] = [];
  return {
    file,
    async start(env: Record<string, string>, options: HarnessOptions = {}): Promise<Harness> {
      const h = await startHarness(engine, {
        ...options,
        env: { ...(engine === 'sqlite' ? { DATABASE_URL: `sqlite:${file}` } : {}), ...env },
        ...(schema ? { pgSchema: schema } : {}),
      });
      schema ??= h.pgSchema;
      return h;
    },
    /** Closes a start; the first one (which owns a PostgreSQL schema) last, in cleanUp. */
    async stop(h: Harness): Promise<void> {
      if (h.pgSchema && owners.length === 0) owners.push(h);
      if (!owners.includes(h)) await h.close();
    },
    async cleanUp(): Promise<void> {
      for (const h of owners) await h.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function enrol(h: Harness): Promise<number> {
  const { id } = await h.account();
  await new SqlTwoFactorStore(h.server.container.storage.db, new SecretBox(h.server.container.sealKeys)).start(
    id,
    SEED,
    1000,
  );
  return id;
}

for (const engine of ENGINES) {
  test(
    `a start with a SEAL_KEY that cannot open the seeds fails, saying so; with the right key among its keys it starts [${engine.name}]`,
    { skip: engine.skip ?? false },
    async () => {
      const db = onOneDatabase(engine.name);
      try {
        const [right, wrong] = [newSealKeyText(), newSealKeyText()];
        const first = await db.start({ SEAL_KEY: right });
        const id = await enrol(first);
        await db.stop(first);
        await assert.rejects(
          db.start({ SEAL_KEY: wrong }),
          (e: unknown) =>
            e instanceof SealKeyError && /^SEAL_KEY cannot open the secrets sealed at rest/.test(e.message),
        );
        const moving = await db.start({ SEAL_KEY: `${wrong},${right}` });
        const found = await new SqlTwoFactorStore(
          moving.server.container.storage.db,
          new SecretBox(moving.server.container.sealKeys),
        ).find(id);
        assert.equal(found?.secret, SEED);
        await db.stop(moving);
      } finally {
        await db.cleanUp();
      }
    },
  );
}

const sqlite = ENGINES.find((e) => e.name === 'sqlite');
test(
  'SQLite without SEAL_KEY: a key file beside the database file, 0600, made at the first start and kept by the next',
  { skip: !sqlite },
  async () => {
    const db = onOneDatabase('sqlite');
    try {
      const first = await db.start({});
      const id = await enrol(first);
      await db.stop(first);
      const path = `${db.file}.seal-key`;
      assert.equal(statSync(path).mode & 0o777, 0o600);
      const key = readFileSync(path, 'utf8');
      const again = await db.start({});
      assert.equal(readFileSync(path, 'utf8'), key, 'the same key');
      const found = await new SqlTwoFactorStore(
        again.server.container.storage.db,
        new SecretBox(again.server.container.sealKeys),
      ).find(id);
      assert.equal(found?.secret, SEED);
      assert.deepEqual(
        await again.server.container.storage.db
          .selectFrom('app_secrets')
          .select('name')
          .where('name', '=', 'totp-seal')
          .execute(),
        [],
      );
      await db.stop(again);
    } finally {
      await db.cleanUp();
    }
  },
);

test(
  'SQLite: the key file gone, with seeds sealed under it, fails the start saying so and makes no new key',
  { skip: !sqlite },
  async () => {
    const db = onOneDatabase('sqlite');
    try {
      const first = await db.start({});
      await enrol(first);
      await db.stop(first);
      const path = `${db.file}.seal-key`;
      rmSync(path);
      await assert.rejects(
        db.start({}),
        (e: unknown) =>
          e instanceof SealKeyError &&
          e.message.startsWith(
            `The seal key file ${path} is missing: copy it from where the database was (or set SEAL_KEY).`,
          ),
      );
      assert.ok(!existsSync(path), 'no new key');
    } finally {
      await db.cleanUp();
    }
  },
);

const postgres = ENGINES.find((e) => e.name === 'postgres');
test(
  "PostgreSQL without SEAL_KEY: the database key, and one warning at start, in the server's log",
  { skip: !postgres || (postgres.skip ?? false) },
  async () => {
    const lines: string[] = [];
    const h = await startHarness('postgres', {
      env: { LOG_LEVEL: 'warn' },
      overrides: { logStream: { write: (line) => lines.push(line) } },
    });
    try {
      await enrol(h);
      const warnings = lines
        .map((l) => JSON.parse(l) as { level: number; msg: string })
        .filter((l) => /SEAL_KEY/.test(l.msg));
      assert.equal(warnings.length, 1, lines.join(''));
      assert.equal(warnings[0]!.level, 40, 'at warn');
      assert.match(
        warnings[0]!.msg,
        /^SEAL_KEY is not set: the key that seals two-factor secrets is kept in the database beside them/,
      );
    } finally {
      await h.close();
    }
  },
);
