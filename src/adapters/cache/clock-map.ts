export interface ClockEntry<T> {
  value: T;
  expires: number;
  /** Read since eviction last passed it (CLOCK: a second chance instead of reordering on every hit). */
  used: boolean;
}

/**
 * A Map of entries with a lifetime and a cap, evicting by CLOCK (an LRU approximation whose hits
 * only set a flag: moving the entry in the Map on every hit cost the redirect more than the
 * lookup itself). onDelete hears of every entry that leaves one by one (evicted, expired,
 * replaced or deleted), so indexes kept beside the map stay exact.
 */
export class ClockMap<T> {
  private readonly map = new Map<string, ClockEntry<T>>();

  constructor(
    private readonly max: number,
    private readonly onDelete: (key: string, value: T) => void = () => {},
  ) {}

  get size(): number {
    return this.map.size;
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  /** The entry as it is, expired or not, without marking it read. */
  entry(key: string): ClockEntry<T> | undefined {
    return this.map.get(key);
  }

  /** The value while it is fresh (an expired entry leaves); marks it read. */
  get(key: string, now: number): T | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now) {
      this.delete(key);
      return undefined;
    }
    entry.used = true;
    return entry.value;
  }

  set(key: string, value: T, ttl: number, now: number): void {
    this.delete(key); // a fresh entry goes to the end of the order
    // Up to half earlier at random: links read together (a warm-up, a restart) do not all expire,
    // and make the event loop read them all again, in the same second.
    this.map.set(key, { value, expires: now + ttl - Math.floor(Math.random() * ttl * 0.5), used: false });
    // From the oldest: an entry read since the last pass goes to the end, the first unread one goes.
    // Each pass clears the flags it moves, so this ends within one lap of the Map.
    while (this.map.size > this.max) {
      const [oldestKey, oldest] = this.map.entries().next().value!;
      this.map.delete(oldestKey);
      if (oldest.used && oldestKey !== key) {
        oldest.used = false;
        this.map.set(oldestKey, oldest);
      } else {
        this.onDelete(oldestKey, oldest.value);
      }
    }
  }

  delete(key: string): boolean {
    const entry = this.map.get(key);
    if (!entry) return false;
    this.map.delete(key);
    this.onDelete(key, entry.value);
    return true;
  }

  /**
   * Every entry expired at once, kept: get() no longer serves any, and whoever reads entry()
   * sees them past their time.
   */
  expireAll(): void {
    for (const entry of this.map.values()) entry.expires = Number.NEGATIVE_INFINITY;
  }

  /** Empties the map without telling onDelete: whoever clears it clears its indexes too. */
  clear(): void {
    this.map.clear();
  }
}
