/**
 * The cache keys held under each of some ids (a link, an owner, an alias), so that an
 * invalidation finds its entries without walking the cache. Nearly every id has one key: a set
 * is made only for a second.
 */
export class KeyIndex<Id> {
  private readonly keys = new Map<Id, string | Set<string>>();

  add(id: Id, key: string): void {
    const held = this.keys.get(id);
    if (held === undefined) this.keys.set(id, key);
    else if (typeof held === 'string') {
      if (held !== key) this.keys.set(id, new Set([held, key]));
    } else held.add(key);
  }

  remove(id: Id, key: string): void {
    const held = this.keys.get(id);
    if (held === key) this.keys.delete(id);
    else if (typeof held === 'object') {
      held.delete(key);
      if (held.size === 0) this.keys.delete(id);
    }
  }

  /** A copy: the caller deletes entries, which removes them from here as it goes. */
  keysOf(id: Id): string[] {
    const held = this.keys.get(id);
    return held === undefined ? [] : typeof held === 'string' ? [held] : [...held];
  }

  clear(): void {
    this.keys.clear();
  }
}
