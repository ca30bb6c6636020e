import type { Clock } from '../shared/clock.ts';
import type { Mailer } from '../mail/mailer.ts';
import { digestMail, type DigestUrls } from './digest-mail.ts';
import type { DigestWorkspace, HealthDigestStore } from './digest-ports.ts';

const DAY_MS = 86_400_000;
/** A person's first digest tells the last day; one after days without a round reaches back at most a week. */
const FIRST_WINDOW_MS = DAY_MS;
const LONGEST_WINDOW_MS = 7 * DAY_MS;
/** Links a mail lists; the broken filter it links to shows the rest. */
const LINKS_PER_MAIL = 50;

export interface HealthDigestDeps {
  store: HealthDigestStore;
  mailer: Mailer;
  clock: Clock;
  urls: DigestUrls;
  /** A mail that could not be sent (its claim is given back). */
  onError?: (error: unknown) => void;
}

/** The UTC day of an instant, as the claims key it. */
function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * The daily digest of newly broken links (docs/design/health.md): each round, every admin and
 * owner of a workspace with links newly broken who has not had today's (UTC) digest of it gets
 * one mail of the links that broke since their last one. The claim, one row per workspace,
 * person and day, is taken before the mail is sent, so one mail goes however many instances
 * run a round; a mail that fails gives its claim back. A window without links sends nothing.
 */
export class HealthDigests {
  constructor(private readonly deps: HealthDigestDeps) {}

  /**
   * One round; answers how many mails were sent. `stop` aborted: no other mail is begun (the mail
   * being sent ends first); the days not claimed yet are the next round's.
   */
  async round(stop?: AbortSignal): Promise<number> {
    const now = this.deps.clock.now();
    const workspaces = await this.deps.store.workspacesWithBroken(now - LONGEST_WINDOW_MS);
    let sent = 0;
    for (const workspace of workspaces) sent += await this.workspaceRound(workspace, now, stop);
    return sent;
  }

  private async workspaceRound(workspace: DigestWorkspace, now: number, stop?: AbortSignal): Promise<number> {
    const { store } = this.deps;
    const day = dayOf(now);
    let sent = 0;
    for (const recipient of await store.recipients(workspace.id)) {
      if (stop?.aborted) break;
      const claim = await store.claim(workspace.id, recipient.userId, day, now);
      if (!claim) continue;
      const since = Math.max(claim.previousUntil ?? now - FIRST_WINDOW_MS, now - LONGEST_WINDOW_MS);
      const found = await store.newlyBroken(workspace.id, since, now, LINKS_PER_MAIL + 1);
      if (found.length === 0) continue;
      const links = found.slice(0, LINKS_PER_MAIL);
      const mail = digestMail({ workspace, recipient, links, more: found.length > links.length }, this.deps.urls);
      try {
        await this.deps.mailer.send(mail);
        sent++;
      } catch (error) {
        await store.release(workspace.id, recipient.userId, day);
        this.deps.onError?.(error);
      }
    }
    return sent;
  }
}
