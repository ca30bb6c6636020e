import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A SQLite file that cannot be opened as linkpix's database: a directory in its place, a file
 * this process may not read and write, a directory it may not write in, or a file that is not
 * SQLite's. A local file is no outage that passes by itself (docs/design/outages.md): the start
 * fails with this one message, naming the file and the reason, for its operator to put right.
 */
export class SqliteFileError extends Error {}

/** The error a failed open of `path` is told as: what the file system says of it, else SQLite's own words. */
export function sqliteFileError(path: string, error: unknown): SqliteFileError {
  return new SqliteFileError(`The SQLite database ${path} (DATABASE_URL) cannot be opened: ${reasonOf(path, error)}.`, {
    cause: error,
  });
}

function reasonOf(path: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const dir = dirname(path);
  // mkdirSync's own failure: the directory could not be made.
  if (typeof code === 'string' && (error as NodeJS.ErrnoException).syscall === 'mkdir') {
    // EEXIST or ENOTDIR: a file stands where a directory of the path should be.
    if (code === 'EEXIST' || code === 'ENOTDIR') return `its directory ${dir} cannot be made: a file is in its way`;
    return `its directory ${dir} cannot be made (${code})`;
  }
  const file = statOf(path);
  if (file?.isDirectory()) return 'it is a directory';
  if (file && !file.isFile()) return 'it is not a regular file';
  if (file && !may(path, constants.R_OK | constants.W_OK)) {
    return `this process (user ${process.getuid?.() ?? '?'}) may not read and write it (mode ${modeOf(file.mode)}, owner ${file.uid})`;
  }
  if (!may(dir, constants.W_OK | constants.X_OK)) {
    return `this process may not write in its directory ${dir} (SQLite keeps its -wal and -shm files beside it)`;
  }
  if (code === 'SQLITE_NOTADB') return 'it is not a SQLite database';
  if (code === 'SQLITE_CORRUPT') return 'it is damaged (SQLite: database disk image is malformed)';
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${message} (${code})` : message;
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function may(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

function modeOf(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}
