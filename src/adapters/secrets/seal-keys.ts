import { sql, type Kysely } from 'kysely';
import { randomToken } from '../../core/shared/secrets.ts';
import { CLI_OPERATOR } from '../../core/audit/audit-entry.ts';
import type { Clock } from '../../core/shared/clock.ts';
import type { Engine } from '../storage/connect.ts';
import type { Database } from '../storage/schema.ts';
import { openWith, sealedKeyId, sealWith, UnknownSealKeyError, type KeyRing } from './secret-box.ts';
import { forgetSealed, readSealed, replaceSealed, type SealedRow } from '../storage/stores/sealed-secrets.ts';
import { createKeyFile, readKeyFile, replaceKeyFile } from './key-file.ts';
import { databaseSealKey, newSealKeyText, sealKeyOf, type SealKey } from './seal-key.ts';

/** Where the seal key comes from: SEAL_KEY, SQLite's key file, or (PostgreSQL without SEAL_KEY) the database. */
export type SealKeySource =
  { kind: 'env'; keys: readonly string[] } | { kind: 'file'; path: string } | { kind: 'database' };

/** The keys cannot open what is sealed: the start (or the command) fails with this message. */
export class SealKeyError extends Error {}

/** The database's own key, by its row's name in app_secrets (named when it sealed TOTP seeds alone). */
const DATABASE_KEY = 'totp-seal';

/** How the CLI names the database's key (its id is ''), in `--key-id` and in reports. */
const DATABASE_KEY_ID = 'database';

export interface SealKeysOptions {
  db: Kysely<Database>;
  engine: Engine;
  source: SealKeySource;
  /** The start's warnings and a running server's (the server's logger; the CLI's standard error). */
  warn: (line: string) => void;
  /** When a forgotten secret's audit entry happened. */
  clock: Clock;
}

export interface SealKeysReady {
  source: SealKeySource['kind'];
  /** The id of the key new secrets are sealed under ('' for the database key). */
  sealing: string;
  /** Secrets moved off the database key by this start. */
  resealed: number;
}

/** What `linkpix seal-key check` reports: nothing is changed to learn it. */
export interface SealCheck {
  source: SealKeySource['kind'];
  /** The key new secrets would be sealed under (null: the database key, or a key file not made yet). */
  sealing: string | null;
  /** How many secrets are sealed under each key id (`database` for the database key); each opened. */
  sealed: Record<string, number>;
  /** Secrets under the database key that the next start moves to the outside key. */
  toReseal: number;
  databaseKey: boolean;
  /** SQLite: the key file does not exist yet (the next start makes it). */
  fileMissing?: true;
}

export interface Rotation {
  key: string;
  resealed: number;
  /** SQLite: the key file written. */
  file?: string;
}

/** Which secrets `forgetLost` deletes: those under the named key ids, or every one no key opens. */
export type LostKeys = { keyIds: readonly string[] } | { all: true };

type Prepared = { ready: SealKeysReady; outside: readonly string[] | null; database: SealKey | null };

/**
 * The one holder of the key that seals secrets at rest, for every kind of secret
 * (docs/design/secrets.md). At the first use (the start awaits it) it checks that its keys open
 * every sealed secret, and moves the secrets sealed under the database's key to its own, in one
 * transaction that two starts at once take in turn. On SQLite the database's key is deleted in
 * that transaction; on PostgreSQL it stays until `forgetDatabaseKey` (an instance of the
 * previous version may still seal under it).
 */
export class SealKeys {
  private prepared: Promise<Prepared> | null = null;

  constructor(private readonly options: SealKeysOptions) {}

  async ready(): Promise<SealKeysReady> {
    return (await (this.prepared ??= this.prepare())).ready;
  }

  /**
   * The keys to seal and open with. fresh: the key file and the database key read again (a
   * rotation by the CLI may have changed the file beside a running server; an instance of the
   * previous version may have sealed under the database key); asked before sealing, and when a
   * secret names a key this one does not hold.
   */
  async ring(fresh = false): Promise<KeyRing> {
    const prepared = await (this.prepared ??= this.prepare());
    const { source, db, warn } = this.options;
    if (source.kind === 'database') {
      // Read at each use: once the key is forgotten, nothing may be sealed under it any more.
      const material = await readDatabaseKey(db);
      if (material === null) {
        throw new SealKeyError(
          'The database seal key is gone: the secrets are sealed under SEAL_KEY. Set the same SEAL_KEY here and restart.',
        );
      }
      const key = databaseSealKey(material);
      return { sealing: key, opening: [key] };
    }
    if (fresh) {
      if (source.kind === 'file') {
        // Never made here: a missing file beside a running server is an accident to tell, not a
        // reason for a new key that the next start could not find.
        const read = await readKeyFile(source.path, warn);
        if (read) prepared.outside = read;
        else
          warn(
            `the seal key file ${source.path} is missing: the keys read before are kept until the next start, which fails without it; copy it back`,
          );
      }
      const material = await readDatabaseKey(db);
      prepared.database = material === null ? null : databaseSealKey(material);
    }
    const keys = prepared.outside!.map(sealKeyOf);
    return { sealing: keys[0]!, opening: [...keys, ...(prepared.database ? [prepared.database] : [])] };
  }

  /** Opens one secret per key id and says what a start would do; changes nothing (fails as the start would). */
  async check(): Promise<SealCheck> {
    const { source, db, warn } = this.options;
    const rows = await readSealed(db);
    const material = await readDatabaseKey(db);
    const database = material === null ? [] : [databaseSealKey(material)];
    const sealed: Record<string, number> = {};
    for (const row of rows) {
      const id = nameOf(sealedKeyId(row.sealed) ?? '?');
      sealed[id] = (sealed[id] ?? 0) + 1;
    }
    const toMove = rows.filter((r) => sealedKeyId(r.sealed) === '').length;
    const report = { source: source.kind, sealed, databaseKey: material !== null };
    if (source.kind === 'database') {
      checkOpens(rows, database, "SEAL_KEY is not set, and the database's key");
      return { ...report, sealing: null, toReseal: 0 };
    }
    const outside = source.kind === 'env' ? source.keys : await readKeyFile(source.path, warn);
    if (outside === null) {
      if (rows.some(sealedOutside)) throw missingFile(source.kind === 'file' ? source.path : '');
      checkOpens(rows, database, "The database's key");
      return { ...report, sealing: null, toReseal: toMove, fileMissing: true };
    }
    checkOpens(rows, [...outside.map(sealKeyOf), ...database], whatOf(source));
    return { ...report, sealing: sealKeyOf(outside[0]!).id, toReseal: toMove };
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
    if (source.kind === 'env')
      return { key: sealKeyOf(source.keys[0]!).id, resealed: await this.resealAll(source.keys) };
    const current = await readKeyFile(source.path, warn);
    if (!current) throw missingFile(source.path);
    const next = newSealKeyText();
    // The new key first, the old ones still there: a crash before the end leaves every secret openable.
    await replaceKeyFile(source.path, [next, ...current]);
    const resealed = await this.resealAll([next, ...current]);
    // The keys still named are read, and the file written, inside the lock: a secret sealed
    // meanwhile under an old key (a server that read the file before) keeps its key.
    await this.locked(async (trx) => {
      const inUse = new Set((await readSealed(trx)).map((r) => sealedKeyId(r.sealed)));
      await replaceKeyFile(source.path, [next, ...current.filter((k) => inUse.has(sealKeyOf(k).id))]);
    });
    return { key: sealKeyOf(next).id, resealed, file: source.path };
  }

  /**
   * The way out when a key is lost for good: deletes the secrets under the named lost keys (or,
   * `all`, every one no key at hand opens), in one transaction, each with its person's audit
   * entry (for a two-factor seed, the person's two-factor is off: they sign in with their
   * password and enrol again). Refused when it would delete a secret a key at hand opens, and
   * `all` is refused when no secret opens at all: the keys at hand are then likely not the
   * server's (docs/operations.md, "The seal key"). Needs no start to pass: a start would refuse.
   */
  async forgetLost(lost: LostKeys): Promise<SealedRow[]> {
    const { source, warn } = this.options;
    const texts =
      source.kind === 'env'
        ? source.keys
        : source.kind === 'file'
          ? ((await readKeyFile(source.path, warn)) ?? [])
          : [];
    const forgotten = await this.locked(async (trx) => {
      const material = await readDatabaseKey(trx);
      const keys = [...texts.map(sealKeyOf), ...(material === null ? [] : [databaseSealKey(material)])];
      const rows = await readSealed(trx);
      const unopened = rows.filter((row) => !opens(keys, row.sealed));
      const chosen =
        'all' in lost ? everyUnopened(rows, unopened, source) : underNamedKeys(rows, unopened, lost.keyIds);
      const at = this.options.clock.now();
      const done: SealedRow[] = [];
      for (const row of chosen) if (await forgetSealed(trx, row, { actor: CLI_OPERATOR, at })) done.push(row);
      return done;
    });
    this.prepared = null; // checked again at the next use
    return forgotten;
  }

  /**
   * Deletes the database's key once nothing is sealed under it (every instance has SEAL_KEY or
   * the key file): refused while a secret still needs it. True when there was one to delete.
   */
  async forgetDatabaseKey(): Promise<boolean> {
    if (this.options.source.kind === 'database') {
      throw new SealKeyError(
        "SEAL_KEY is not set: the database's key is the seal key, and stays. Set SEAL_KEY on every instance first (docs/operations.md).",
      );
    }
    return this.locked(async (trx) => {
      const waiting = (await readSealed(trx)).filter((r) => sealedKeyId(r.sealed) === '').length;
      if (waiting > 0) {
        throw new SealKeyError(
          `${waiting} secret(s) are still sealed under the database's key (an instance without SEAL_KEY, or of the previous version, sealed them). ` +
            'Give every instance SEAL_KEY, restart one (its start moves them), and run this again. Nothing was deleted.',
        );
      }
      const deleted = await trx.deleteFrom('app_secrets').where('name', '=', DATABASE_KEY).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    });
  }

  private async prepare(): Promise<Prepared> {
    const { source, engine, warn } = this.options;
    if (source.kind === 'database') {
      await this.locked(async (trx) => {
        const rows = await readSealed(trx);
        await trx
          .insertInto('app_secrets')
          .values({ name: DATABASE_KEY, value: randomToken(32) })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
        checkOpens(
          rows,
          [databaseSealKey((await readDatabaseKey(trx))!)],
          "SEAL_KEY is not set, and the database's key",
        );
      });
      if (engine === 'postgres') {
        warn(
          'SEAL_KEY is not set: the key that seals two-factor secrets is kept in the database beside them. Set SEAL_KEY on every instance (docs/operations.md).',
        );
      }
      return { ready: { source: 'database', sealing: '', resealed: 0 }, outside: null, database: null };
    }
    const outside = source.kind === 'env' ? source.keys : await this.keyFileAtStart(source.path);
    const ring = outside.map(sealKeyOf);
    const { resealed, material } = await this.locked(async (trx) => {
      const found = await readDatabaseKey(trx);
      const old = found === null ? [] : [databaseSealKey(found)];
      const rows = await readSealed(trx);
      checkOpens(rows, [...ring, ...old], whatOf(source));
      let moved = 0;
      for (const row of rows.filter((r) => sealedKeyId(r.sealed) === '')) {
        if (await replaceSealed(trx, row, sealWith(ring[0]!, openWith(old, row.sealed)))) moved++;
      }
      // One process serves a SQLite file, so no instance of the previous version can still seal
      // under the database's key: it goes with the move, as the move's own transaction.
      if (found !== null && engine === 'sqlite') {
        await trx.deleteFrom('app_secrets').where('name', '=', DATABASE_KEY).execute();
        return { resealed: moved, material: null };
      }
      return { resealed: moved, material: found };
    });
    if (material !== null) {
      warn(
        'the database still holds its own seal key (the secrets are now sealed under SEAL_KEY or the key file): once every instance runs with it, `linkpix seal-key forget-database-key` deletes it (docs/operations.md, "The seal key")',
      );
    }
    return {
      ready: { source: source.kind, sealing: ring[0]!.id, resealed },
      outside,
      database: material === null ? null : databaseSealKey(material),
    };
  }

  /** The key file's keys; made only when nothing is sealed under a key from outside the database (else the file was lost). */
  private async keyFileAtStart(path: string): Promise<string[]> {
    const { db, warn } = this.options;
    const found = await readKeyFile(path, warn);
    if (found) return found;
    if ((await readSealed(db)).some(sealedOutside)) {
      // A start at the same time may have made the file, and moved the seeds, since it was read.
      const made = await readKeyFile(path, warn);
      if (made) return made;
      throw missingFile(path);
    }
    return createKeyFile(path, warn);
  }

  private resealAll(texts: readonly string[]): Promise<number> {
    return this.locked(async (trx) => {
      const material = await readDatabaseKey(trx);
      const keys = [...texts.map(sealKeyOf), ...(material === null ? [] : [databaseSealKey(material)])];
      let moved = 0;
      for (const row of await readSealed(trx)) {
        if (sealedKeyId(row.sealed) === keys[0]!.id) continue;
        if (await replaceSealed(trx, row, sealWith(keys[0]!, openWith(keys, row.sealed)))) moved++;
      }
      return moved;
    });
  }

  /** One transaction; on PostgreSQL, instances starting at once take it in turn. SQLite's transactions take the write lock already. */
  private locked<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.options.db.transaction().execute(async (trx) => {
      if (this.options.engine === 'postgres')
        await sql`select pg_advisory_xact_lock(hashtext('linkpix: seal keys'))`.execute(trx);
      return work(trx);
    });
  }
}

function whatOf(source: SealKeySource): string {
  return source.kind === 'file' ? `The seal key file ${source.path}` : 'SEAL_KEY';
}

function missingFile(path: string): SealKeyError {
  return new SealKeyError(
    `The seal key file ${path} is missing: copy it from where the database was (or set SEAL_KEY). Nothing was changed.`,
  );
}

/** Sealed under a key from outside the database (`v2.`): its key cannot be made again. */
function sealedOutside(row: SealedRow): boolean {
  const id = sealedKeyId(row.sealed);
  return id !== null && id !== '';
}

const nameOf = (id: string) => (id === '' ? DATABASE_KEY_ID : id);

function everyUnopened(
  rows: readonly SealedRow[],
  unopened: readonly SealedRow[],
  source: SealKeySource,
): readonly SealedRow[] {
  if (unopened.length > 0 && unopened.length === rows.length) {
    const ids = [...new Set(unopened.map((r) => nameOf(sealedKeyId(r.sealed) ?? '?')))].join(',');
    throw new SealKeyError(
      `No sealed secret opens under the keys at hand (${source.kind === 'env' ? "this shell's SEAL_KEY" : source.kind === 'file' ? `the key file ${source.path}` : "the database's key"}): ` +
        "they are likely not the server's. Nothing was deleted. Run this where the server's SEAL_KEY is set; " +
        `if every key the ${rows.length} secret(s) were sealed with is lost for good, name them: --key-id ${ids}.`,
    );
  }
  return unopened;
}

function underNamedKeys(
  rows: readonly SealedRow[],
  unopened: readonly SealedRow[],
  keyIds: readonly string[],
): readonly SealedRow[] {
  const chosen: SealedRow[] = [];
  for (const id of new Set(keyIds)) {
    const under = rows.filter((r) => nameOf(sealedKeyId(r.sealed) ?? '?') === id);
    if (under.length === 0) throw new SealKeyError(`No secret is sealed under key ${id}. Nothing was deleted.`);
    if (under.some((r) => !unopened.includes(r)))
      throw new SealKeyError(`Key ${id} is at hand: the secrets sealed under it open. Nothing was deleted.`);
    chosen.push(...under);
  }
  return chosen;
}

function opens(keys: readonly SealKey[], sealed: string): boolean {
  try {
    openWith(keys, sealed);
    return true;
  } catch {
    return false;
  }
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
  const lost: string[] = [];
  for (const [id, sealed] of byKey) {
    try {
      openWith(keys, sealed[0]!.sealed);
    } catch (error) {
      const under =
        id === '' ? 'the database key, which is gone' : id === '?' ? 'no key (not a sealed secret)' : `key ${id}`;
      refused.push(
        `${sealed.length} sealed under ${under}${error instanceof UnknownSealKeyError ? '' : ' (it does not open them: a wrong key or damaged rows)'}`,
      );
      lost.push(nameOf(id));
    }
  }
  if (refused.length === 0) return;
  throw new SealKeyError(
    `${what} cannot open the secrets sealed at rest (two-factor seeds, integrations' secrets): ${refused.join('; ')}. ` +
      'Nothing was changed. Set SEAL_KEY to the key they were sealed with (several, comma-separated, while moving from one key to another). ' +
      `If that key is lost for good, \`linkpix seal-key forget-lost --key-id ${lost.join(',')}\` turns two-factor off for those people (they sign in with their password and enrol again) and removes those integrations (made again, with a new endpoint). ` +
      'See docs/operations.md, "The seal key".',
  );
}
