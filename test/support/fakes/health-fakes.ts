import type { LinkHealth } from '../../../src/core/health/health.ts';
import { UNKNOWN_HEALTH } from '../../../src/core/health/health.ts';
import type { ClaimedLink, LinkHealthStore } from '../../../src/core/health/ports.ts';

interface Row {
  accountId: number;
  url: string;
  disabled: boolean;
  health: LinkHealth | null;
  checkedUrl: string | null;
  nextCheckAt: number;
  lease: { holder: string; until: number } | null;
}

/** LinkHealthStore in memory, with its own links (test/contracts/link-health-store-contract.ts). */
export class MemoryLinkHealthStore implements LinkHealthStore {
  private readonly rows = new Map<number, Row>();
  private nextId = 1;

  addLink(accountId: number, url: string, disabled = false): number {
    const id = this.nextId++;
    this.rows.set(id, { accountId, url, disabled, health: null, checkedUrl: null, nextCheckAt: 0, lease: null });
    return id;
  }

  setUrl(linkId: number, url: string): void {
    const row = this.rows.get(linkId);
    if (row) row.url = url;
  }

  async claimDue(holder: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedLink[]> {
    const due = [...this.rows.entries()]
      .filter(([, r]) => !r.disabled && r.nextCheckAt <= now && (r.lease === null || r.lease.until < now))
      .sort(
        ([a, x], [b, y]) =>
          Number(x.health !== null) - Number(y.health !== null) || x.nextCheckAt - y.nextCheckAt || a - b,
      )
      .slice(0, limit);
    return due.map(([linkId, r]) => {
      r.lease = { holder, until: leaseUntil };
      return { linkId, accountId: r.accountId, url: r.url, health: this.current(r) };
    });
  }

  async record(linkId: number, url: string, health: LinkHealth, nextCheckAt: number): Promise<void> {
    const row = this.rows.get(linkId);
    if (!row) return;
    Object.assign(row, { health, checkedUrl: url, nextCheckAt, lease: null });
  }

  async healthOf(accountId: number, linkIds: readonly number[]): Promise<Map<number, LinkHealth>> {
    const out = new Map<number, LinkHealth>();
    for (const id of linkIds) {
      const row = this.rows.get(id);
      const health = row && row.accountId === accountId ? this.current(row) : UNKNOWN_HEALTH;
      if (health.status !== 'unknown') out.set(id, health);
    }
    return out;
  }

  private current(row: Row): LinkHealth {
    return row.health && row.checkedUrl === row.url ? row.health : UNKNOWN_HEALTH;
  }
}
