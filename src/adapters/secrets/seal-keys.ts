import { sql, type Kysely } from 'kysely';
import { randomToken } from '../../core/shared/secrets.ts';
import type { Engine } from '../storage/connect.ts';
import type { Database } from '../storage/schema.ts';
import { openWith, sealedKeyId, sealWith, UnknownSealKeyError, type KeyRing } from './secret-box.ts';
import { forgetSealed, readSealed, replaceSealed, type SealedRow } from '../storage/stores/sealed-secrets.ts';
import { readOrCreateKeyFile, replaceKeyFile } from './key-file.ts';
import { databaseSealKey, newSealKeyText, sealKeyOf, type SealKey } from './seal-key.ts';

/** Where the seal key comes from: SEAL_KEY, SQLite's key file, or (PostgreSQL without SEAL_KEY) the database. */
export type SealKeySource = { kind: 'env'; keys: readonly string[] } | { kind: 'file'; path: string } | { kind: 'database' };

/** The keys cannot open what is sealed: the start (or the command) fails with this message. */
export class SealKeyError extends Error {}

/** The database's own key, by its row's name in app_secrets (named when it sealed TOTP seeds alone). */
const DATABASE_KEY = 'totp-seal';

export interface SealKeysOptions {
  db: Kysely<Database>;
  engine: Engine;
  source: SealKeySource;
  warn: (line: string) => void;
}

export interface SealKeysReady {
  source: SealKeySource['kind'];
  /** The id of the key new secrets are sealed under ('' for the database key). */
  sealing: string;
  /** Secrets moved off the database key by this start. */
  resealed: number;
}

export interface Rotation {
  key: string;
  resealed: number;
  /** SQLite: the key file written. */
  file?: string;
}

/**
 * The one holder of the key that seals secrets at rest, for every kind of secret
 * (docs/design/secrets.md). At the first use (the start awaits it) it checks that its keys open
 * every sealed secret, and moves the secrets sealed under the database's key to its own, in one
 * transaction that two starts at once take in turn; then the database's key is deleted.
 */
export class SealKeys {
  private prepared: Promise<{ ready: SealKeysReady; ring: KeyRing | null }> | null = null;

  constructor(private readonly options: SealKeysOptions) {}

  async ready(): Promise<SealKeysReady> {
    return (await (this.prepared ??= this.prepare())).ready;
  }

  /**
   * The keys to seal and open with. fresh: the key file read again (a rotation by the CLI may
   * have changed it beside a running server); asked before sealing, and when a secret names a
   * key this one does not hold.
   */
  async ring(fresh = false): Promise<KeyRing> {
    const prepared = await (this.prepared ??= this.prepare());
    const { source, db } = this.options;
    if (source.kind === 'file' && fresh) prepared.ring = ringOf(await readOrCreateKeyFile(source.path, () => {}));
    if (prepared.ring) return prepared.ring;
    // Read at each use: once another instance has moved to SEAL_KEY the key is gone, and nothing
    // may be sealed under it any more.
    const material = await readDatabaseKey(db);
    if (material === null)
      throw new SealKeyError('The database seal key is gone: another instance moved the secrets to SEAL_KEY. Set the same SEAL_KEY here and restart.');
    const key = databaseSealKey(material);
    return { sealing: key, opening: [key] };
  }

  /** Every secret resealed under the first key (SEAL_KEY's, or a new one in the key file), in one transaction. */
  async rotate(): Promise<Rotation> {
    await this.ready();
    const { source, warn } = this.options;
    if (source.kind === 'database') {
      throw new SealKeyError(
        'SEAL_KEY is not set: the seal key is kept in the database. Set SEAL_KEY on every instance (`linkpix seal-key new` prints one) and restart them: the secrets are resealed under it at the start.',
      );
    }
    if (source.kind === 'env') return { key: sealKeyOf(source.keys[0]!).id, resealed: await this.resealAll(ringOf(source.keys)) };
    const current = await readOrCreateKeyFile(source.path, warn);
    const next = newSealKeyText();
    // The new key first, the old ones still there: a crash before the end leaves every secret openable.
    await replaceKeyFile(source.path, [next, ...current]);
    const resealed = await this.resealAll(ringOf([next, ...current]));
    const inUse = new Set((await readSealed(this.options.db)).map((r) => sealedKeyId(r.sealed)));
    await replaceKeyFile(source.path, [next, ...current.filter((k) => inUse.has(sealKeyOf(k).id))]);
    return { key: sealKeyOf(next).id, resealed, file: source.path };
  }

  /**
   * The way out when a key is lost for good: deletes every secret that no key at hand opens (for
   * a two-factor seed, the person's two-factor is off: they sign in with their password and
   * enrol again), in one transaction. Needs no start to pass: a start would refuse.
   */
  async forgetLost(): Promise<SealedRow[]> {
    const { source, warn } = this.options;
    const texts = source.kind === 'env' ? source.keys : source.kind === 'file' ? await readOrCreateKeyFile(source.path, warn) : [];
    const lost = await this.locked(async (trx) => {
      const material = await readDatabaseKey(trx);
      const keys = [...texts.map(sealKeyOf), ...(material === null ? [] : [databaseSealKey(material)])];
      const unopened = (await readSealed(trx)).filter((row) => !opens(keys, row.sealed));
      for (const row of unopened) await forgetSealed(trx, row);
      return unopened;
    });
    this.prepared = null; // checked again at the next use
    return lost;
  }

  private async prepare(): Promise<{ ready: SealKeysReady; ring: KeyRing | null }> {
    const { source, engine, warn } = this.options;
    if (source.kind === 'database') {
      await this.locked(async (trx) => {
        const rows = await readSealed(trx);
        await trx
          .insertInto('app_secrets')
          .values({ name: DATABASE_KEY, value: randomToken(32) })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
        checkOpens(rows, [databaseSealKey((await readDatabaseKey(trx))!)], "SEAL_KEY is not set, and the database's key");
      });
      if (engine === 'postgres') {
        warn('SEAL_KEY is not set: the key that seals two-factor secrets is kept in the database beside them. Set SEAL_KEY on every instance (docs/operations.md).');
      }
      return { ready: { source: 'database', sealing: '', resealed: 0 }, ring: null };
    }
    const ring = ringOf(source.kind === 'env' ? source.keys : await readOrCreateKeyFile(source.path, warn));
    const resealed = await this.locked(async (trx) => {
      const material = await readDatabaseKey(trx);
      const old = material === null ? [] : [databaseSealKey(material)];
      const rows = await readSealed(trx);
      checkOpens(rows, [...ring.opening, ...old], source.kind === 'env' ? 'SEAL_KEY' : `The seal key file ${source.path}`);
      let moved = 0;
      for (const row of rows.filter((r) => sealedKeyId(r.sealed) === '')) {
        if (await replaceSealed(trx, row, sealWith(ring.sealing, openWith(old, row.sealed)))) moved++;
      }
      if (material !== null) await trx.deleteFrom('app_secrets').where('name', '=', DATABASE_KEY).execute();
      return moved;
    });
    return { ready: { source: source.kind, sealing: ring.sealing.id, resealed }, ring };
  }

  private resealAll(ring: KeyRing): Promise<number> {
    return this.locked(async (trx) => {
      let moved = 0;
      for (const row of await readSealed(trx)) {
        if (sealedKeyId(row.sealed) === ring.sealing.id) continue;
        if (await replaceSealed(trx, row, sealWith(ring.sealing, openWith(ring.opening, row.sealed)))) moved++;
      }
      return moved;
    });
  }

  /** One transaction; on PostgreSQL, instances starting at once take it in turn. SQLite's transactions take the write lock already. */
  private locked<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.options.db.transaction().execute(async (trx) => {
      if (this.options.engine === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('linkpix: seal keys'))`.execute(trx);
      return work(trx);
    });
  }
}

function opens(keys: readonly SealKey[], sealed: string): boolean {
  try {
    openWith(keys, sealed);
    return true;
  } catch {
    return false;
  }
}

function ringOf(texts: readonly string[]): KeyRing {
  const keys = texts.map(sealKeyOf);
  return { sealing: keys[0]!, opening: keys };
}

async function readDatabaseKey(db: Kysely<Database>): Promise<string | null> {
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', DATABASE_KEY).executeTakeFirst();
  return row?.value ?? null;
}

/** Each key the rows name is there and opens its first row; else the start fails, saying which and what to do. */
function checkOpens(rows: readonly SealedRow[], keys: readonly SealKey[], what: string): void {
  const byKey = new Map<string, SealedRow[]>();
  for (const row of rows) {
    const id = sealedKeyId(row.sealed) ?? '?';
    byKey.set(id, [...(byKey.get(id) ?? []), row]);
  }
  const refused: string[] = [];
  for (const [id, sealed] of byKey) {
    try {
      openWith(keys, sealed[0]!.sealed);
    } catch (error) {
      const under = id === '' ? 'the database key, which is gone' : id === '?' ? 'no key (not a sealed secret)' : `key ${id}`;
      refused.push(`${sealed.length} sealed under ${under}${error instanceof UnknownSealKeyError ? '' : ' (it does not open them: a wrong key or damaged rows)'}`);
    }
  }
  if (refused.length === 0) return;
  throw new SealKeyError(
    `${what} cannot open the secrets sealed at rest (two-factor seeds): ${refused.join('; ')}. ` +
      'Nothing was changed. Set SEAL_KEY to the key they were sealed with (several, comma-separated, while moving from one key to another). ' +
      'If that key is lost for good, `linkpix seal-key forget-lost` turns two-factor off for those people (they sign in with their password and enrol again). ' +
      'See docs/operations.md, "The seal key".',
  );
}
