import type { Click } from './click.ts';

/**
 * A value now, or later. A single instance keeps caps and rotation in memory and answers at
 * once, so the redirect can answer without a turn of the event loop; a shared store (Redis)
 * answers later.
 */
export type Eventually<T> = T | Promise<T>;

/**
 * Decides, atomically, whether one more visit may reach the destination of a link with a
 * click cap. Exact across concurrent requests (and, with a shared store, across instances).
 */
export interface ClickQuota {
  /** `known`: the clicks the caller last read from the database, used to seed the count. */
  claim(linkId: number, cap: number, known: number): Eventually<boolean>;
  /** Whether the cap is used up, without claiming (for visits that do not count: bots, HEAD). */
  exhausted(linkId: number, cap: number, known: number): Eventually<boolean>;
  /** Forget what is known of a link (its cap or clicks changed, or it was deleted). */
  forget(linkId: number): Promise<void>;
}

/** Hands out rotation positions round-robin: over N visits each of k entries gets ⌊N/k⌋ or ⌈N/k⌉. */
export interface RotationCursor {
  /** `known`: last_rotation from the database, used to seed the position. */
  next(linkId: number, size: number, known: number): Eventually<number>;
}

/** Receives clicks on the hot path without waiting on the database; writes them in batches. */
export interface ClickSink {
  /** rotation: the position this visit was served, kept as the link's last_rotation. */
  record(click: Click, rotation?: number): void;
  /** Writes everything buffered so far. */
  flush(): Promise<void>;
  /** Flushes and stops; every click recorded before is written. */
  close(): Promise<void>;
}

/** Where click batches end up: rows, counters and rotation positions in one transaction. */
export interface ClickStore {
  writeBatch(batch: ClickBatch): Promise<void>;
  /** Writes whatever the store holds back after writeBatch (a rollup window), if anything. */
  settle?(): Promise<void>;
}

export interface ClickBatch {
  clicks: Click[];
  /** Human clicks per link, added to links.clicks in the same transaction as the rows. */
  counts: Map<number, number>;
  /** Latest rotation position per link. */
  rotations: Map<number, number>;
}
