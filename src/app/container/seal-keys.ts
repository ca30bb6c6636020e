import { SealKeys, type SealKeySource } from '../../adapters/secrets/seal-keys.ts';
import { keyFileOf } from '../../adapters/secrets/key-file.ts';
import { sqlitePath } from '../../adapters/storage/connect.ts';
import type { Config } from '../config.ts';
import type { Base } from './base.ts';

/** SEAL_KEY; else SQLite's key file beside its database file; else (PostgreSQL, an in-memory SQLite) the database's key. */
function sealKeySource(config: Config): SealKeySource {
  if (config.SEAL_KEY.length > 0) return { kind: 'env', keys: config.SEAL_KEY };
  if (/^postgres(ql)?:\/\//i.test(config.DATABASE_URL)) return { kind: 'database' };
  const path = sqlitePath(config.DATABASE_URL);
  return path === ':memory:' ? { kind: 'database' } : { kind: 'file', path: keyFileOf(path) };
}

const warnOf =
  (config: Config) =>
  (line: string): void => {
    if (config.LOG_LEVEL !== 'silent') console.warn(`linkpix: ${line}`);
  };

/** The key sealing secrets at rest (docs/design/secrets.md); `warn` absent: standard error unless LOG_LEVEL=silent. */
export function sealKeysOf(base: Pick<Base, 'config' | 'storage' | 'clock'>, warn?: (line: string) => void): SealKeys {
  const { config, storage, clock } = base;
  return new SealKeys({
    db: storage.db,
    engine: storage.engine,
    source: sealKeySource(config),
    warn: warn ?? warnOf(config),
    clock,
  });
}
