/**
 * Runs `work` on ports whose writes are one unit: they commit together when `work` resolves, or
 * not at all when it throws, and the error reaches the caller. A link change and the webhook
 * deliveries it enqueues are one unit, so an answered change has its events stored and a failed
 * enqueue leaves no change behind (docs/design/webhooks.md).
 *
 * The ports are handed to `work`: everything it reads or writes goes through them (its reads see
 * the unit's uncommitted writes), never through the service's own ports. What must not follow a
 * change that is rolled back (cache invalidation, Redis, background tasks) runs after the unit
 * resolves. Writes inside one unit run one after another, never several at once.
 */
export type UnitOfWork<Ports> = <T>(work: (ports: Ports) => Promise<T>) => Promise<T>;

/** Without a database (the unit tests' in-memory stores): `work` on the ports as they are. */
export function noUnitOfWork<Ports>(ports: Ports): UnitOfWork<Ports> {
  return (work) => work(ports);
}
