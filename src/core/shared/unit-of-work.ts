/**
 * Runs `work` as one unit: everything the stores write while it runs (including their own
 * transactions, which become part of it) commits together when it resolves, or not at all when
 * it throws, and the error reaches the caller. A link change and the webhook deliveries it
 * enqueues are one unit, so an answered change has its events stored and a failed enqueue
 * leaves no change behind (docs/adr/0033).
 *
 * Inside `work`: the reads that must see the uncommitted change (e.g. a link's view for its
 * event), and nothing that must not happen for a change rolled back or that may run after it:
 * cache invalidation, Redis, waking loops and background tasks are started after the unit
 * resolves (background work started inside would join the unit while it lasts). The stores'
 * writes inside one unit run one after another, never several of them at once. A unit inside
 * another joins it.
 */
export type UnitOfWork = <T>(work: () => Promise<T>) => Promise<T>;

/** Without a database (the unit tests' in-memory stores): `work` alone. */
export const noUnitOfWork: UnitOfWork = (work) => work();
