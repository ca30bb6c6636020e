import type { Clock } from '../core/shared/clock.ts';
import type { ClickSink } from '../core/clicks/ports.ts';
import type { LinkEventListener } from '../core/links/link-events.ts';
import type { LinkView } from '../core/links/link.ts';
import { WebhooksService } from '../core/webhooks/webhooks-service.ts';
import { WebhookEvents } from '../core/webhooks/webhook-events.ts';
import { WebhookDispatcher } from '../core/webhooks/webhook-dispatcher.ts';
import { ClickBatcher } from '../core/webhooks/click-batcher.ts';
import { ExpirySweep } from '../core/webhooks/expiry-sweep.ts';
import { LinkViews } from '../core/links/link-views.ts';
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
import type { Config } from './config.ts';
import type { Tuning } from './tuning.ts';
import { Pump } from './pump.ts';
import { SqlAuditLog } from '../adapters/storage/stores/audit-store.ts';

/** Which accounts listen to clicks is read again this often (other instances create webhooks too). */
const SUBSCRIBED_REFRESH_MS = 10_000;
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
   * committed. A failure reaches the change, which is rolled back (docs/adr/0033).
   */
  linkEventsOn(db: Kysely<Database>, afterCommit: (task: () => void) => void): LinkEventListener;
  /** The same outside a unit (a dry-run import tells nothing, the in-memory tests): writes on the pool. */
  onLinkEvent: LinkEventListener;
  /** The redirect's sink, also handing clicks to the batcher (a set lookup, never awaited). */
  tap(sink: ClickSink): ClickSink;
  /** Starts the delivery, click and expiry loops (the server, not the CLI). */
  start(): void;
  /** Hands the clicks batched so far to the outbox and stops; pending deliveries wait in the outbox. */
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
  const loop = new Pump(async () => (await dispatcher.deliverDue()) === BATCH, tuning.WEBHOOK_POLL_MS, onError);
  // On a unit's transaction, the dispatcher is woken once the unit has committed: woken before,
  // it could look before the deliveries are there and sleep a whole poll interval.
  const eventsOn: EventsOn = (db, afterCommit) =>
    new WebhookEvents({
      store: new SqlWebhookStore(db),
      outbox: new SqlDeliveryOutbox(db, storage.engine),
      clock,
      enqueued: () => afterCommit(() => loop.kick()),
    });
  const events = eventsOn(storage.db, (task) => task());
  const clicks = new ClickBatcher(events);
  const expiry = expirySweepOf(storage, clock, present, recordsOn, { events, eventsOn });
  // link.expired: links that expired since the last round, each claimed by one instance.
  const expiryLoop = new Pump(() => expiry.round(EXPIRY_BATCH), tuning.WEBHOOK_EXPIRY_SWEEP_MS, onError);
  const service = new WebhooksService({
    store,
    targets,
    clock,
    unit: unitOfWorkOn(storage.db, (trx) => ({ store: new SqlWebhookStore(trx), audit: new SqlAuditLog(trx) })),
    onCreated: (w) => (w.events.includes('link.clicked') ? clicks.subscribe(w.accountId) : undefined),
  });
  const clickLoop = clickLoopOf(store, clicks, onError);
  return {
    service,
    dispatcher,
    clicks,
    linkEventsOn: (db, afterCommit) => listenerOf(eventsOn(db, afterCommit), present),
    onLinkEvent: listenerOf(events, present),
    tap: (sink) => tapOf(sink, clicks),
    start: () => {
      loop.start();
      clickLoop.start();
      expiryLoop.start();
    },
    stop: async () => {
      await expiryLoop.stop();
      await clickLoop.stop();
      await clicks.flush().catch(onError);
      await loop.stop();
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
          data: { link: view ? present(view) : { id: link.id, alias: link.alias } },
        })),
      ),
  };
}

/** The redirect's sink, also handing clicks to the batcher (a set lookup, never awaited). */
function tapOf(sink: ClickSink, clicks: ClickBatcher): ClickSink {
  return {
    record: (click, rotation) => {
      sink.record(click, rotation);
      clicks.take(click);
    },
    flush: () => sink.flush(),
    close: () => sink.close(),
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

/** link.clicked: the batched clicks handed to the outbox each second, the listening accounts read again now and then. */
function clickLoopOf(store: SqlWebhookStore, clicks: ClickBatcher, onError: (error: unknown) => void): Pump {
  let lastRefresh = -Infinity;
  const clickLoop = new Pump(
    async () => {
      if (Date.now() - lastRefresh >= SUBSCRIBED_REFRESH_MS) {
        lastRefresh = Date.now();
        clicks.setSubscribed(await store.accountsSubscribed('link.clicked'));
      }
      await clicks.flush();
      return false;
    },
    1000,
    onError,
  );
  return clickLoop;
}
