/**
 * A map whose entries go away between one and two `idleMs` after their last write. Two
 * generations rather than a timestamp per entry: a sweep is one swap, a read only checks the
 * clock, and only links visited lately hold an entry.
 */
export class IdleMap<V> {
  private current = new Map<number, V>();
  private previous = new Map<number, V>();
  private sweptAt: number;

  constructor(
    private readonly idleMs: number,
    private readonly now: () => number,
  ) {
    this.sweptAt = now();
  }

  get(key: number): V | undefined {
    this.sweep();
    return this.current.get(key) ?? this.previous.get(key);
  }

  set(key: number, value: V): void {
    this.current.set(key, value);
  }

  delete(key: number): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  /** Entries held (one promoted to the current generation may count twice). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private sweep(): void {
    const now = this.now();
    const elapsed = now - this.sweptAt;
    if (elapsed < this.idleMs) return;
    const dropped = this.previous;
    dropped.clear();
    if (elapsed >= 2 * this.idleMs) this.current.clear();
    this.previous = this.current;
    this.current = dropped;
    this.sweptAt = now;
  }
}
