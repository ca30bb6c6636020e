import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { newSealKeyText, parseSealKeys, SEAL_KEY_FORMAT } from './seal-key.ts';

/**
 * SQLite's seal key when SEAL_KEY is unset: a file beside the database file, so a copy of the
 * database alone (a dump, a replica, a support query) does not carry the key of what it seals
 * (docs/design/secrets.md). Made at the first start, read at every later one.
 */
export function keyFileOf(databasePath: string): string {
  return `${databasePath}.seal-key`;
}

/**
 * Makes the file with a new key unless it exists, and reads it (two starts at once make one).
 * The caller decides that a new key is right: never when secrets are sealed under a key from
 * outside the database (docs/design/secrets.md).
 */
export async function createKeyFile(path: string, warn: (line: string) => void): Promise<string[]> {
  const draft = await writeDraft(path, [newSealKeyText()]);
  try {
    // link() never replaces: of two starts at once, one file wins and both read it.
    await link(draft, path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    });
  } finally {
    await unlink(draft);
  }
  await syncDirectory(path);
  const keys = await readKeyFile(path, warn);
  if (!keys) throw new Error(`The seal key file ${path} vanished as it was made.`);
  return keys;
}

/** Replaces the file's keys at once (a rename): a crash leaves the old list or the new, never half. */
export async function replaceKeyFile(path: string, keys: readonly string[]): Promise<void> {
  await rename(await writeDraft(path, keys), path);
  await syncDirectory(path);
}

/** The file's keys, or null when there is no file. */
export async function readKeyFile(path: string, warn: (line: string) => void): Promise<string[] | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (((await stat(path)).mode & 0o077) !== 0)
    warn(`the seal key file ${path} can be read by others than its owner: chmod 600 it`);
  try {
    const keys = parseSealKeys(text);
    if (keys.length > 0) return keys;
  } catch {
    // told below, naming the file
  }
  throw new Error(`The seal key file ${path} must hold ${SEAL_KEY_FORMAT}.`);
}

/** The keys in a file of the owner's alone (0600), written through to the disk, beside `path`. */
async function writeDraft(path: string, keys: readonly string[]): Promise<string> {
  const draft = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(draft, 'wx', 0o600);
  try {
    await file.writeFile(`${keys.join(',')}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  return draft;
}

/** A link or rename is durable once its directory is synced: a power cut after it keeps the new name. */
async function syncDirectory(path: string): Promise<void> {
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
