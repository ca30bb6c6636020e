import type { ClaimAnswer, ClickClaimStore, RotationStore } from '../../../src/core/clicks/ports.ts';

interface Count {
  claimed: number;
  open: boolean;
  closedAt: number | null;
}

/** The database's count of click caps, in memory: as SqlClickClaimStore answers (test/contracts/claim-stores-contract.ts). */
export class MemoryClickClaimStore implements ClickClaimStore {
  /** The counts by link id; a test may set one as other instances would have left it. */
  readonly counts = new Map<number, Count>();

  /** `clicksOf`: a link's clicks, undefined when there is no such link. */
  constructor(private readonly clicksOf: (linkId: number) => number | undefined = () => 0) {}

  async open(
    linkId: number,
    floor: number,
    options: { lostAt: number; force?: boolean },
  ): Promise<'open' | 'closed' | 'gone'> {
    const clicks = this.clicksOf(linkId);
    if (clicks === undefined) return 'gone';
    const seed = Math.max(Number.isInteger(floor) ? floor : 0, clicks);
    const count = this.counts.get(linkId);
    if (!count) {
      this.counts.set(linkId, { claimed: seed, open: true, closedAt: null });
      return 'open';
    }
    const mayOpen = options.force || count.open || count.closedAt === null || count.closedAt <= options.lostAt;
    if (!mayOpen) return 'closed';
    count.claimed = Math.max(count.claimed, seed);
    count.open = true;
    return 'open';
  }

  async claim(linkId: number, cap: number): Promise<ClaimAnswer> {
    if (!Number.isInteger(cap)) return 'refused';
    const count = this.counts.get(linkId);
    if (!count) return 'missing';
    if (!count.open) return 'closed';
    if (count.claimed >= cap) return 'refused';
    count.claimed++;
    return 'granted';
  }

  async close(linkId: number, at: number): Promise<number | null> {
    const clicks = this.clicksOf(linkId);
    let count = this.counts.get(linkId);
    if (count) {
      count.open = false;
      count.closedAt = at;
    } else if (clicks !== undefined) {
      count = { claimed: clicks, open: false, closedAt: at };
      this.counts.set(linkId, count);
    }
    if (clicks === undefined) return count?.claimed ?? null;
    return Math.max(clicks, count?.claimed ?? 0);
  }

  async claimed(linkId: number): Promise<number | null> {
    return this.counts.get(linkId)?.claimed ?? null;
  }
}

/** The database's rotation positions, in memory: as SqlRotationStore answers. */
export class MemoryRotationStore implements RotationStore {
  private readonly positions = new Map<number, number>();

  async next(linkId: number, size: number, known: number): Promise<number> {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`rotation size must be a positive integer, got ${size}`);
    const current = this.positions.get(linkId);
    const last = Number.isInteger(known) ? known : -1;
    const position = current === undefined ? (((last + 1) % size) + size) % size : (current + 1) % size;
    this.positions.set(linkId, position);
    return position;
  }

  async take(linkId: number): Promise<number | null> {
    const position = this.positions.get(linkId) ?? null;
    this.positions.delete(linkId);
    return position;
  }
}
