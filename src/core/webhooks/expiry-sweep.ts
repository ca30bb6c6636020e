import type { LinkStore } from '../links/link-store.ts';
import type { LinkView } from '../links/link.ts';
import type { LinkViews } from '../links/link-views.ts';
import type { Clock } from '../shared/clock.ts';
import { noUnitOfWork, type UnitOfWork } from '../shared/unit-of-work.ts';
import type { ExpiryClaims } from './ports.ts';
import type { WebhookEvents } from './webhook-events.ts';
import { linkPayload } from './webhook-payloads.ts';

/** What a round reads and writes in its unit of work. */
export interface ExpirySweepPorts {
  claims: ExpiryClaims;
  links: Pick<LinkStore, 'findByIds'>;
  views: Pick<LinkViews, 'of'>;
  events: Pick<WebhookEvents, 'listens' | 'emitMany'>;
}

/**
 * Tells `link.expired` once per link: expiry is decided when a link is read, never written, so
 * a sweep finds the links that expired since (past their date, or their click cap reached once
 * the visit's click is counted) and claims them in the database, which makes each one told by
 * one instance only. Links of accounts without such a webhook are claimed too, and told to no one.
 * A round's claim and its deliveries are one unit: an instance that dies in between, or fails to
 * enqueue, leaves the links unclaimed for the next round.
 */
export class ExpirySweep {
  private readonly unit: UnitOfWork<ExpirySweepPorts>;

  constructor(
    private readonly deps: ExpirySweepPorts & {
      present: (view: LinkView) => unknown;
      clock: Clock;
      /** A round's claim and its deliveries commit together; absent: the ports above, each write on its own. */
      unitOfWork?: UnitOfWork<ExpirySweepPorts>;
    },
  ) {
    this.unit = deps.unitOfWork ?? noUnitOfWork<ExpirySweepPorts>(deps);
  }

  /** One round of at most `limit` links per cause; answers whether it took `limit` or more (more may be due). */
  round(limit: number): Promise<boolean> {
    return this.unit(async (tx) => {
      const claimed = await tx.claims.claim(this.deps.clock.now(), limit);
      const byAccount = new Map<number, number[]>();
      for (const { id, accountId } of claimed)
        (byAccount.get(accountId) ?? byAccount.set(accountId, []).get(accountId)!).push(id);
      for (const [accountId, ids] of byAccount) await this.tell(tx, accountId, ids);
      return claimed.length >= limit;
    });
  }

  private async tell(tx: ExpirySweepPorts, accountId: number, ids: number[]): Promise<void> {
    if (!(await tx.events.listens(accountId, 'link.expired'))) return;
    const views = await tx.views.of(accountId, await tx.links.findByIds(accountId, ids));
    await tx.events.emitMany(
      accountId,
      'link.expired',
      views.map((view) => ({ linkId: view.link.id, data: linkPayload(this.deps.present(view)) })),
    );
  }
}
