import type { RedirectLink } from '../../core/redirect/redirect-link.ts';

type Change = { seq: number } & (
  { kind: 'link'; id: number; alias: string | undefined } | { kind: 'account'; id: number } | { kind: 'all' }
);

/**
 * The last invalidations, numbered, so that a read can tell whether something it read may have
 * changed while it was on its way: only then is it read again, instead of after every write of
 * any link. Bounded: a read older than the oldest change kept counts as overtaken.
 */
export class ChangeLog {
  private readonly changes: Change[] = [];
  private seq = 0;

  constructor(private readonly max = 1024) {}

  /** Where the log stands now: what a read records before it starts. */
  get mark(): number {
    return this.seq;
  }

  link(id: number, alias: string | undefined): void {
    this.push({ seq: ++this.seq, kind: 'link', id, alias: alias?.toLowerCase() });
  }

  account(id: number): void {
    this.push({ seq: ++this.seq, kind: 'account', id });
  }

  all(): void {
    this.push({ seq: ++this.seq, kind: 'all' });
  }

  /**
   * Whether a change since `mark` concerns what a read found under `alias` (lower case): the
   * link found (by id or owner), or, when none was found, a link given that alias since. An
   * account's change counts for every miss: it may have been a domain's.
   */
  overtakes(mark: number, alias: string, found: RedirectLink | null): boolean {
    if (mark === this.seq) return false;
    const oldest = this.changes[0];
    if (oldest === undefined || oldest.seq > mark + 1) return true;
    for (let i = this.changes.length - 1; i >= 0 && this.changes[i]!.seq > mark; i--) {
      const change = this.changes[i]!;
      if (change.kind === 'all') return true;
      if (change.kind === 'account' && (found === null || found.accountId === change.id)) return true;
      if (change.kind === 'link' && (found?.id === change.id || (found === null && change.alias === alias)))
        return true;
    }
    return false;
  }

  /** Whether any account changed since `mark` (what a domain read depends on). */
  accountsChangedSince(mark: number): boolean {
    if (mark === this.seq) return false;
    const oldest = this.changes[0];
    if (oldest === undefined || oldest.seq > mark + 1) return true;
    for (let i = this.changes.length - 1; i >= 0 && this.changes[i]!.seq > mark; i--)
      if (this.changes[i]!.kind !== 'link') return true;
    return false;
  }

  private push(change: Change): void {
    this.changes.push(change);
    if (this.changes.length > this.max) this.changes.splice(0, this.changes.length - this.max);
  }
}
