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

/**
 * Sees every click the sink records, after the sink, on the click path: a map update, never
 * awaited (the webhooks' batcher, the live tally). The chain: adapters/clicks/sink/sink-chain.ts.
 */
export interface ClickTap {
  take(click: Click): void;
}

/** What a claim in the database's count of a cap came to (ClickClaimStore.claim). */
export type ClaimAnswer = 'granted' | 'refused' | 'closed' | 'missing';

/**
 * The database's count of a link's click cap, used while Redis is away. The count is open while
 * instances without Redis claim in it, and closed once an instance that has Redis again took the
 * count back there: a closed count grants nothing, so the two never both grant.
 */
export interface ClickClaimStore {
  /**
   * Opens the count at no less than `floor` and the link's clicks; answers 'closed' instead when
   * it was closed after `lostAt` (another instance had Redis since this one lost it) unless
   * `force`, 'gone' when the link is not there.
   */
  open(
    linkId: number,
    floor: number,
    options: { lostAt: number; force?: boolean },
  ): Promise<'open' | 'closed' | 'gone'>;
  /** One click more if the count is open and under the cap. */
  claim(linkId: number, cap: number): Promise<ClaimAnswer>;
  /**
   * Closes the count, if one was opened (Redis has it again), and answers the database's count of
   * the link: that count, and no less than the link's clicks written so far (Redis may come back
   * empty when no count was ever opened here); null when the link is gone.
   */
  close(linkId: number, at: number): Promise<number | null>;
  /** The count, open or closed, or null. */
  claimed(linkId: number): Promise<number | null>;
}

/** The database's rotation position of a link, used while Redis is away. */
export interface RotationStore {
  /** The next position; the first after `known` (last position served) when there is none yet. */
  next(linkId: number, size: number, known: number): Promise<number>;
  /** Removes the link's position (Redis has the rotation again) and answers it, or null. */
  take(linkId: number): Promise<number | null>;
}
