import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The name every import upload's temporary directory starts with, in the system's temporary directory. */
const PREFIX = 'linkpix-import-';

/**
 * How old a leftover must be before a start removes it: far past the longest upload window
 * (REQUEST_TIMEOUT_MS's maximum) and the longest import, so a directory another instance on
 * the machine is still using is never taken (docs/design/imports.md).
 */
export const LEFTOVER_AGE_MS = 24 * 3_600_000;

/** A fresh directory for one upload; removed by its route in every case. */
export function importTempDir(parent: string = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, PREFIX));
}

export interface SweepOptions {
  parent?: string;
  now?: number;
  olderThanMs?: number;
}

/**
 * Removes the upload directories a killed instance left (their route's `finally` never ran),
 * those older than LEFTOVER_AGE_MS by their modification time. Never throws: a directory that
 * cannot be read or removed (another user's, gone already) is left. Returns the paths removed.
 */
export async function sweepImportLeftovers({
  parent = tmpdir(),
  now = Date.now(),
  olderThanMs = LEFTOVER_AGE_MS,
}: SweepOptions = {}): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const path = join(parent, name);
    try {
      // lstat: a link of that name is not a directory of ours, and is not followed.
      const info = await lstat(path);
      if (!info.isDirectory() || now - info.mtimeMs < olderThanMs) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Not ours to remove, or removed meanwhile: left as it is.
    }
  }
  return removed;
}
