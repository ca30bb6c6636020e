import { open, rename, rm, chmod, type FileHandle } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * A file replaced whole or not at all: written to a draft beside it (mode 0600), synced, renamed
 * over it, then its directory synced, so a crash leaves the old file or the new one, never half
 * of either. `fill` writes through the handle it is given.
 */
export async function writeAtomically(path: string, fill: (file: FileHandle) => Promise<void>): Promise<void> {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  const draft = join(directory, `.${basename(path)}.${process.pid}.draft`);
  const file = await open(draft, 'w', 0o600);
  try {
    // The mode given to open passes the umask; the file holds secrets either way.
    await chmod(draft, 0o600);
    await fill(file);
    await file.sync();
  } catch (error) {
    await file.close().catch(() => {});
    await rm(draft, { force: true });
    throw error;
  }
  await file.close();
  await rename(draft, path);
  const dir = await open(directory, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
