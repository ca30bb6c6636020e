import { setImmediate as turn } from 'node:timers/promises';
import type { SnapshotSource } from '../../core/redirect/redirect-snapshot.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import { writeAtomically } from './atomic-file.ts';
import {
  SNAPSHOT_MAGIC,
  snapshotHmac,
  snapshotKeyId,
  trailerLine,
  type SnapshotHeader,
  type SnapshotSecrets,
} from './snapshot-format.ts';

/** Links read, and written, at a time: a page is one statement and one write, never the whole table. */
const PAGE = 500;

export interface SnapshotWriterOptions {
  path: string;
  /** snapshotOrigin(APP_URL). */
  origin: string;
  /** The secrets a visit uses, read from the database. */
  secrets: () => Promise<SnapshotSecrets>;
  now?: () => number;
  /** Told after each file written: how many links it holds. */
  onWritten?: (links: number, header: SnapshotHeader) => void;
}

/**
 * Writes the redirect snapshot (docs/design/snapshot.md): every enabled link, the custom domains
 * and the visit's secrets, a page at a time, to a file replaced whole. It runs as a job on the
 * server's scheduler and writes only when something changed since the last file: a change told
 * (the link cache's invalidations, from this instance or another), or none written yet.
 */
export class SnapshotWriter {
  private dirty = true;
  private readonly now: () => number;

  constructor(
    private readonly source: SnapshotSource,
    private readonly options: SnapshotWriterOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Something a visit reads changed (an invalidation the link cache received): the next round writes. */
  changed(): void {
    this.dirty = true;
  }

  /** One round of the job: writes the file if something changed; a failure leaves it to the next round. */
  async round(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      await this.write();
    } catch (error) {
      this.dirty = true;
      // The outage is told by the database's reporter; the last file stays, and is what is served.
      if (!(error instanceof UnavailableError)) throw error;
    }
  }

  private async write(): Promise<void> {
    const secrets = await this.options.secrets();
    const header: SnapshotHeader = {
      keyId: snapshotKeyId(secrets),
      origin: this.options.origin,
      writtenAt: this.now(),
    };
    // Read before the file is opened: a database that is away leaves the last file as it is.
    const domains = await this.source.snapshotDomains();
    let links = 0;
    await writeAtomically(this.options.path, async (file) => {
      const hmac = snapshotHmac(secrets);
      const put = async (text: string) => {
        hmac.update(text);
        await file.write(text);
      };
      await put(`${SNAPSHOT_MAGIC}\n${JSON.stringify(header)}\n${JSON.stringify({ secrets })}\n`);
      await put(domains.map((d) => `D ${JSON.stringify(d)}\n`).join(''));
      links = await this.writeLinks(put);
      await file.write(trailerLine(hmac.digest()));
    });
    this.options.onWritten?.(links, header);
  }

  private async writeLinks(put: (text: string) => Promise<void>): Promise<number> {
    let afterId = 0;
    let links = 0;
    for (;;) {
      const page = await this.source.snapshotPage(afterId, PAGE);
      if (page.length === 0) return links;
      await put(page.map((row) => `L ${JSON.stringify(row)}\n`).join(''));
      links += page.length;
      afterId = page[page.length - 1]!.link.id;
      await turn();
    }
  }
}
