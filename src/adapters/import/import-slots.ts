import { randomUUID } from 'node:crypto';
import type { ImportLeases, LeaseSubject } from './import-leases.ts';
import { ImportTicket, LEASE_MS } from './import-ticket.ts';

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
export const RETRY_AFTER_SECONDS = 10;

const BUSY: Record<LeaseSubject['kind'], string> = {
  workspace: 'An import of this account is running; try again once it has finished.',
  person: 'This person is running an import already (in this or another workspace); try again once it has finished.',
};

/** The workspace an import writes into and the person who asked for it: each runs one import at a time. */
export interface ImportSubjects {
  workspaceId: number;
  personId: number;
}

/**
 * The guards of imports (docs/design/imports.md): one import per workspace and one per person
 * at a time, across instances and the CLI (lease rows in the database, renewed while the import
 * runs and left to expire if the process dies), and at most `perInstance` running on this
 * instance (IMPORT_CONCURRENCY, counted in memory). A request claims the leases on arrival and
 * takes its instance slot only once its file is on disk (ImportTicket.start), so an upload that
 * trickles in holds no slot.
 */
export class ImportSlots {
  private running = 0;
  private readonly counter = {
    take: () => {
      if (this.running >= this.perInstance) return false;
      this.running++;
      return true;
    },
    give: () => {
      this.running--;
    },
  };

  constructor(
    private readonly leases: ImportLeases,
    private readonly perInstance: number,
    private readonly now: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** The refusal of an instance that runs as many imports as it takes. */
  private full(): ImportBusyError {
    return new ImportBusyError(
      `This instance is running as many imports as it takes (${this.perInstance}); try again shortly.`,
      RETRY_AFTER_SECONDS,
    );
  }

  /**
   * On a request's arrival: the workspace's and the person's leases, held for `forMs` (the
   * time the file has to arrive) and a lease's time beyond; no instance slot yet. Refused at once
   * (ImportBusyError) while either runs an import or receives a file, or while this instance runs
   * as many imports as it takes.
   */
  async claim(subjects: ImportSubjects, forMs: number): Promise<ImportTicket> {
    if (this.running >= this.perInstance) throw this.full();
    const holder = randomUUID();
    const now = this.now();
    const wanted: LeaseSubject[] = [
      { kind: 'workspace', id: subjects.workspaceId },
      { kind: 'person', id: subjects.personId },
    ];
    const taken: LeaseSubject[] = [];
    try {
      for (const subject of wanted) {
        if (!(await this.leases.take(subject, holder, now, now + forMs + LEASE_MS)))
          throw new ImportBusyError(BUSY[subject.kind], RETRY_AFTER_SECONDS);
        taken.push(subject);
      }
    } catch (error) {
      // A lease that cannot be given back now expires by itself.
      for (const subject of taken) await this.leases.release(subject, holder).catch(this.onError);
      throw error;
    }
    return new ImportTicket(
      { leases: this.leases, slots: this.counter, full: () => this.full(), now: this.now, onError: this.onError },
      taken,
      holder,
    );
  }

  /** The CLI's import, whose file is on disk already: claimed and started at once. */
  async acquire(subjects: ImportSubjects): Promise<ImportTicket> {
    const ticket = await this.claim(subjects, 0);
    try {
      await ticket.start();
    } catch (error) {
      await ticket.release();
      throw error;
    }
    return ticket;
  }
}
