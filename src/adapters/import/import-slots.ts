import { randomUUID } from 'node:crypto';

/** Which account's import is running, shared by the instances on one database (storage/stores/import-lease-store.ts). */
export interface ImportLeases {
  /** Takes the account's lease for `holder` until `until`, unless another holder's runs past `now`; whether it was taken. */
  take(accountId: number, holder: string, now: number, until: number): Promise<boolean>;
  extend(accountId: number, holder: string, until: number): Promise<void>;
  release(accountId: number, holder: string): Promise<void>;
}

/** An import cannot start now: the route answers 429 with Retry-After, the CLI says why. */
export class ImportBusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** What a client refused by the guard waits before asking again: imports take seconds to minutes. */
const RETRY_AFTER_SECONDS = 10;
/** How long a lease holds without being renewed: a crashed instance's account is free again after it. */
const LEASE_MS = 60_000;

export interface ImportSlot {
  release(): Promise<void>;
}

/**
 * At most one import per account at a time, across instances (a lease row in the database,
 * renewed while the import runs and left to expire if the process dies), and at most `perInstance`
 * on this instance (IMPORT_CONCURRENCY). docs/adr/0048.
 */
export class ImportSlots {
  private running = 0;

  constructor(
    private readonly leases: ImportLeases,
    private readonly perInstance: number,
    private readonly now: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  async acquire(accountId: number): Promise<ImportSlot> {
    if (this.running >= this.perInstance) {
      throw new ImportBusyError(`This instance is running as many imports as it takes (${this.perInstance}); try again shortly.`, RETRY_AFTER_SECONDS);
    }
    this.running++;
    const holder = randomUUID();
    try {
      if (!(await this.leases.take(accountId, holder, this.now(), this.now() + LEASE_MS))) {
        throw new ImportBusyError('An import of this account is running; try again once it has finished.', RETRY_AFTER_SECONDS);
      }
    } catch (error) {
      this.running--;
      throw error;
    }
    const renew = setInterval(() => {
      this.leases.extend(accountId, holder, this.now() + LEASE_MS).catch(this.onError);
    }, LEASE_MS / 3);
    renew.unref();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        this.running--;
        // A lease that cannot be given back now expires by itself.
        await this.leases.release(accountId, holder).catch(this.onError);
      },
    };
  }
}
