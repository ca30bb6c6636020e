import type { ReservedNames } from '../../../src/core/domains/reserved-names.ts';

/** Reserved host names in memory, as SqlReservedNames answers (test/contracts/reserved-names-contract.ts). */
export class MemoryReservedNames implements ReservedNames {
  private readonly names: Set<string>;

  constructor(names: readonly string[] = []) {
    this.names = new Set(names);
  }

  async isReserved(name: string) {
    return this.names.has(name);
  }

  async reserve(name: string) {
    if (this.names.has(name)) return false;
    this.names.add(name);
    return true;
  }

  async unreserve(name: string) {
    return this.names.delete(name);
  }
}
