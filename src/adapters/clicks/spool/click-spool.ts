import { createHash, randomUUID } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  unlinkSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Click } from '../../../core/clicks/click.ts';
import type { WaitingBatch } from '../thread/worker-messages.ts';

/**
 * The spool's bound on disk: about a million clicks (a record's click is about 250 bytes), ten
 * times the default CLICK_BUFFER_MAX, a long outage of a busy instance, and still a small share
 * of a volume that keeps a snapshot. Past it clicks are dropped and counted, as without a spool.
 */
const SPOOL_MAX_BYTES = 256 * 1024 * 1024;
/** A segment is written in one transaction when the database returns: small enough for one, large enough to be few. */
const SEGMENT_BYTES = 4 * 1024 * 1024;
const SUFFIX = '.clicks';
/** How long a written segment's mark is kept (click_spool_segments): far past any replay of it. */
export const SEGMENT_MARK_MS = 7 * 24 * 3600_000;

/** What a spool record keeps of a hand-over: its clicks (as objects), its counters, when its oldest was recorded. */
export interface SpooledBatch {
  clicks: Iterable<Click>;
  counts: Iterable<[number, number]>;
  rotations: Iterable<[number, number]>;
  since: number;
}

/** A segment read back, to be written in one transaction with its id (click_spool_segments). */
export interface SpoolSegment {
  id: string;
  clicks: number;
  batch: WaitingBatch;
}

/**
 * Clicks past the writer's memory buffer, on disk while the database is away
 * (docs/design/clicks.md, "The spool"): a directory of segment files, each a sequence of
 * records `<checksum> <json>\n` (the checksum a SHA-256 prefix of the JSON). Appends go to the
 * newest segment; a segment is sealed once full or once taken for a replay, and removed once
 * written. A record cut by a kill -9 mid-append is cut off when the spool is opened. Appends are
 * synchronous (the writer's thread); a segment is read back asynchronously.
 */
export class ClickSpool {
  /** The segments on disk, oldest first (their names sort by sequence). */
  private readonly segments: string[] = [];
  private readonly sizes = new Map<string, number>();
  /** The segment appended to; null: the next append opens a new one. */
  private open: string | null = null;
  private sequence = 0;
  private total = 0;

  constructor(
    private readonly dir: string,
    private readonly maxBytes = SPOOL_MAX_BYTES,
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {
    // Made at the first append: an instance whose database never went away has no spool directory.
    if (!existsSync(dir)) return;
    const names = readdirSync(dir)
      .filter((name) => name.endsWith(SUFFIX))
      .sort();
    for (const name of names) {
      const size = wholeRecords(join(dir, name));
      if (size === 0) {
        unlinkSync(join(dir, name));
        continue;
      }
      this.segments.push(name);
      this.sizes.set(name, size);
      this.total += size;
      this.sequence = Math.max(this.sequence, Number.parseInt(name, 10) || 0);
    }
  }

  /** Bytes on disk. */
  get bytes(): number {
    return this.total;
  }

  /** Segments on disk, the one appended to included. */
  get size(): number {
    return this.segments.length;
  }

  /** Appends a record; false (nothing written) when it would pass the bound. */
  append(batch: SpooledBatch): boolean {
    const json = JSON.stringify({
      since: batch.since,
      counts: [...batch.counts],
      rotations: [...batch.rotations],
      // The clicks may be one reused object: each is copied as it is read.
      clicks: Array.from(batch.clicks, (c) => ({ ...c })),
    });
    const line = `${checksum(json)} ${json}\n`;
    const length = Buffer.byteLength(line);
    if (this.total + length > this.maxBytes) return false;
    if (this.open === null || this.sizes.get(this.open)! + length > this.segmentBytes) this.startSegment();
    const name = this.open!;
    appendFileSync(join(this.dir, name), line, { mode: 0o600 });
    this.sizes.set(name, this.sizes.get(name)! + length);
    this.total += length;
    return true;
  }

  /** The oldest segment's id, sealed (no append joins it after); null: the spool is empty. */
  oldest(): string | null {
    const name = this.segments[0];
    if (name === undefined) return null;
    if (this.open === name) this.open = null;
    return idOf(name);
  }

  /** A segment read back as one batch: every whole record, in order; off the event loop's thread's time but for parsing. */
  async read(id: string): Promise<SpoolSegment> {
    const text = await readFile(join(this.dir, id + SUFFIX), 'utf8');
    const clicks: Click[] = [];
    const counts = new Map<number, number>();
    const rotations = new Map<number, number>();
    let since = Number.POSITIVE_INFINITY;
    for (const record of records(text)) {
      const r = JSON.parse(record.json) as {
        since: number;
        counts: Array<[number, number]>;
        rotations: Array<[number, number]>;
        clicks: Click[];
      };
      for (const click of r.clicks) clicks.push(click);
      for (const [link, n] of r.counts) counts.set(link, (counts.get(link) ?? 0) + n);
      for (const [link, position] of r.rotations) rotations.set(link, position);
      since = Math.min(since, r.since);
    }
    const linkIds = new Set(clicks.map((c) => c.linkId));
    const batch: WaitingBatch = {
      clicks,
      linkIds,
      counts,
      rotations,
      since: Number.isFinite(since) ? since : Date.now(),
    };
    return { id, clicks: clicks.length, batch };
  }

  /** Removes a segment once its rows are written (or found written already). */
  remove(id: string): void {
    const name = id + SUFFIX;
    const at = this.segments.indexOf(name);
    if (at < 0) return;
    unlinkSync(join(this.dir, name));
    this.segments.splice(at, 1);
    this.total -= this.sizes.get(name) ?? 0;
    this.sizes.delete(name);
    if (this.open === name) this.open = null;
  }

  private startSegment(): void {
    // The sequence orders segments; the random part makes the id unique across instances sharing a database.
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const name = `${String(++this.sequence).padStart(10, '0')}-${randomUUID()}${SUFFIX}`;
    this.segments.push(name);
    this.sizes.set(name, 0);
    this.open = name;
  }
}

function idOf(name: string): string {
  return name.slice(0, -SUFFIX.length);
}

function checksum(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/** The whole, intact records of a segment's text, in order, and where each ends (bytes). */
function* records(text: string): Generator<{ json: string; end: number }> {
  let start = 0;
  let bytes = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    if (newline < 0) return;
    const line = text.slice(start, newline);
    const space = line.indexOf(' ');
    const json = line.slice(space + 1);
    if (space !== 16 || checksum(json) !== line.slice(0, space)) return;
    bytes += Buffer.byteLength(line) + 1;
    yield { json, end: bytes };
    start = newline + 1;
  }
}

/**
 * Cuts a segment after its last whole record (a kill -9 mid-append leaves part of one; a record
 * after a damaged one is not trusted either) and answers its size. Run once, at the spool's opening.
 */
function wholeRecords(path: string): number {
  let end = 0;
  for (const record of records(readFileSync(path, 'utf8'))) end = record.end;
  if (end < statSync(path).size) truncateSync(path, end);
  return end;
}
