import type { Clock } from '../core/shared/clock.ts';
import type { LinkEventListener } from '../core/links/link-events.ts';
import type { LinkView } from '../core/links/link.ts';
import { WebhooksService } from '../core/webhooks/webhooks-service.ts';
import { WebhookEvents } from '../core/webhooks/webhook-events.ts';
import { WebhookDispatcher } from '../core/webhooks/webhook-dispatcher.ts';
import { ClickBatcher } from '../core/webhooks/click-batcher.ts';
import { ExpirySweep } from '../core/webhooks/expiry-sweep.ts';
import { deletedLinkPayload, linkPayload } from '../core/webhooks/webhook-payloads.ts';
import { LinkViews } from '../core/links/link-views.ts';
import type { HealthEvents } from '../core/health/health-checks.ts';
import type { LinkHealthStore } from '../core/health/ports.ts';
import type { LinkStore } from '../core/links/link-store.ts';
import type { SpaceStore } from '../core/spaces/space-store.ts';
import type { DomainStore } from '../core/domains/domain-store.ts';
import type { TagStore } from '../core/tags/tag-store.ts';
import type { PixelStore } from '../core/pixels/pixel-store.ts';
import type { WebhookSender, WebhookTargetCheck } from '../core/webhooks/ports.ts';
import type { Kysely } from 'kysely';
import type { Storage } from '../adapters/storage/connect.ts';
import type { Database } from '../adapters/storage/schema.ts';
import { unitOfWorkOn } from '../adapters/storage/transactions.ts';
import { SqlWebhookStore } from '../adapters/storage/stores/webhook-store.ts';
import { SqlDeliveryOutbox } from '../adapters/storage/stores/delivery-outbox.ts';
import { SqlExpiryClaims } from '../adapters/storage/stores/expiry-claims.ts';
import { UndiciSender } from '../adapters/webhooks/undici-sender.ts';
import { AddressTargetCheck } from '../adapters/webhooks/target-check.ts';
import { renderDelivery } from '../adapters/webhooks/delivery-renderer.ts';
import type { Config } from './config.ts';
import type { Tuning } from './tuning.ts';
import { JobWake } from '../adapters/shared/scheduler.ts';
import { SqlAuditLog } from '../adapters/storage/stores/audit-store.ts';

/** Which accounts listen to clicks is read again this often (other instances create webhooks too). */
const SUBSCRIBED_REFRESH_MS = 10_000;
/** Deliveries a round takes: a full round is followed by another at once. */
const BATCH = 50;
/** Expired links claimed per cause and round of the sweep. */
const EXPIRY_BATCH = 500;

export interface WebhookRuntime {
  service: WebhooksService;
  dispatcher: WebhookDispatcher;
  clicks: ClickBatcher;
  /**
   * For LinksService and the importer, in a change's unit of work: each change becomes deliveries
   * written on `db` (the unit's transaction), and the dispatcher is woken once the unit has
   * committed. A failure reaches the change, which is rolled back (docs/design/webhooks.md).
   */
  linkEventsOn(db: Kysely<Database>, afterCommit: (task: () => void) => void): LinkEventListener;
  /** The same outside a unit (a dry-run import tells nothing, the in-memory tests): writes on the pool. */
  onLinkEvent: LinkEventListener;
  /** link.broken and link.recovered, written on `db` (the unit that records the check), each link as the API presents it. */
  healthEventsOn(db: Kysely<Database>, afterCommit: (task: () => void) => void): HealthEvents;
  /**
   * One round of each webhook job, run by the server's scheduler (src/app/background-jobs.ts), not
   * by the CLI; each answers whether it was full, so that another follows at once.
   */
  rounds: {
    /** Delivers what is due (BATCH at most); `stop` ends the requests in flight. */
    deliveries: (stop?: AbortSignal) => Promise<boolean>;
    /** Turns the clicks batched for link.clicked into deliveries. */
    clicks: () => Promise<boolean>;
    /** link.expired: links that expired since the last round, each claimed by one instance. */
    expiry: () => Promise<boolean>;
  };
  /** Woken once a unit has committed deliveries: the delivery round runs at once. */
  deliveriesDue: JobWake;
  /** After the jobs have stopped: hands the clicks batched so far to the outbox (deliveries wait there) and closes the sender. */
  stop(): Promise<void>;
}

export interface WebhookRuntimeOverrides {
  sender?: WebhookSender;
  targets?: WebhookTargetCheck;
}

type RecordsOn = (db: Kysely<Database>) => {
  links: LinkStore;
  spaces: SpaceStore;
  domains: DomainStore;
  pixels: PixelStore;
  tags?: TagStore;
  health?: Pick<LinkHealthStore, 'healthOf'>;
};

type EventsOn = (db: Kysely<Database>, afterCommit: (task: () => void) => void) => WebhookEvents;

export function createWebhookRuntime(
  config: Config,
  tuning: Tuning,
  storage: Storage,
  clock: Clock,
  present: (view: LinkView) => unknown,
  recordsOn: RecordsOn,
  onError: (error: unknown) => void,
  overrides: WebhookRuntimeOverrides = {},
): WebhookRuntime {
  const store = new SqlWebhookStore(storage.db);
  const outbox = new SqlDeliveryOutbox(storage.db, storage.engine);
  const sender =
    overrides.sender ??
    new UndiciSender({ allowPrivate: config.OUTBOUND_ALLOW_PRIVATE, timeoutMs: tuning.WEBHOOK_TIMEOUT_MS });
  const targets = overrides.targets ?? new AddressTargetCheck({ allowPrivate: config.OUTBOUND_ALLOW_PRIVATE });
  const dispatcher = new WebhookDispatcher(
    { outbox, sender, clock },
    { leaseMs: tuning.WEBHOOK_LEASE_MS, batch: BATCH },
  );
  const deliveriesDue = new JobWake();
  // On a unit's transaction, the dispatcher is woken once the unit has committed: woken before,
  // it could look before the deliveries are there and sleep a whole poll interval.
  const eventsOn: EventsOn = (db, afterCommit) =>
    new WebhookEvents({
      store: new SqlWebhookStore(db),
      outbox: new SqlDeliveryOutbox(db, storage.engine),
      clock,
      render: renderDelivery,
      enqueued: () => afterCommit(() => deliveriesDue.now()),
    });
  const events = eventsOn(storage.db, (task) => task());
  const clicks = new ClickBatcher(events);
  const expiry = expirySweepOf(storage, clock, present, recordsOn, { events, eventsOn });
  const service = new WebhooksService({
    store,
    targets,
    clock,
    unit: unitOfWorkOn(storage.db, (trx) => ({ store: new SqlWebhookStore(trx), audit: new SqlAuditLog(trx) })),
    onCreated: (w) => (w.events.includes('link.clicked') ? clicks.subscribe(w.accountId) : undefined),
  });
  return {
    service,
    dispatcher,
    clicks,
    linkEventsOn: (db, afterCommit) => listenerOf(eventsOn(db, afterCommit), present),
    onLinkEvent: listenerOf(events, present),
    healthEventsOn: (db, afterCommit) => healthEventsOf(eventsOn(db, afterCommit), recordsOn(db), present),
    rounds: {
      deliveries: async (stop) => (await dispatcher.deliverDue(stop)) === BATCH,
      clicks: clickRoundOf(store, clicks),
      expiry: () => expiry.round(EXPIRY_BATCH),
    },
    deliveriesDue,
    stop: async () => {
      await clicks.flush().catch(onError);
      if (sender instanceof UndiciSender) await sender.close();
    },
  };
}

/** A link change told to the webhooks: each link as the API presents it (a deleted one: its id and alias). */
function listenerOf(events: WebhookEvents, present: (view: LinkView) => unknown): LinkEventListener {
  return {
    listens: (accountId, change) => events.listens(accountId, change),
    changed: (accountId, change, links) =>
      events.emitMany(
        accountId,
        change,
        links.map(({ link, view }) => ({
          linkId: link.id,
          data: view ? linkPayload(present(view)) : deletedLinkPayload(link),
        })),
      ),
  };
}

/** link.expired's sweep: a round's claim and its deliveries commit together. */
function expirySweepOf(
  storage: Storage,
  clock: Clock,
  present: (view: LinkView) => unknown,
  recordsOn: RecordsOn,
  { events, eventsOn }: { events: WebhookEvents; eventsOn: EventsOn },
): ExpirySweep {
  const records = recordsOn(storage.db);
  return new ExpirySweep({
    claims: new SqlExpiryClaims(storage.db, storage.engine),
    links: records.links,
    views: new LinkViews(records),
    events,
    present,
    clock,
    unitOfWork: unitOfWorkOn(storage.db, (trx, afterCommit) => {
      const inUnit = recordsOn(trx);
      return {
        claims: new SqlExpiryClaims(trx, storage.engine),
        links: inUnit.links,
        views: new LinkViews(inUnit),
        events: eventsOn(trx, afterCommit),
      };
    }),
  });
}

/** link.clicked: a round hands the batched clicks to the outbox, the listening accounts read again now and then. */
function clickRoundOf(store: SqlWebhookStore, clicks: ClickBatcher): () => Promise<boolean> {
  let lastRefresh = -Infinity;
  return async () => {
    if (Date.now() - lastRefresh >= SUBSCRIBED_REFRESH_MS) {
      lastRefresh = Date.now();
      clicks.setSubscribed(await store.accountsSubscribed('link.clicked'));
    }
    await clicks.flush();
    return false;
  };
}

/** A change of a link's health told with the link as it is now (its new health in it), to the account's listeners only. */
function healthEventsOf(
  events: WebhookEvents,
  records: ReturnType<RecordsOn>,
  present: (view: LinkView) => unknown,
): HealthEvents {
  return {
    changed: async (accountId, event, linkId) => {
      if (!(await events.listens(accountId, event))) return;
      const [view] = await new LinkViews(records).of(accountId, await records.links.findByIds(accountId, [linkId]));
      if (view) await events.emit(accountId, event, linkId, linkPayload(present(view)));
    },
  };
}
