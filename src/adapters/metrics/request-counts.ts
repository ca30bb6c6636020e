interface Count {
  route: string;
  status: number;
  n: number;
}

/**
 * Requests served through Fastify by route pattern and status. Routes are patterns
 * (/api/v1/links/:id), never raw paths, so there are as many keys as routes times statuses.
 */
export class RequestCounts {
  private readonly counts = new Map<string, Count>();

  add(route: string, status: number): void {
    const key = `${status} ${route}`;
    const count = this.counts.get(key);
    if (count) count.n++;
    else this.counts.set(key, { route, status, n: 1 });
  }

  entries(): Iterable<Readonly<Count>> {
    return this.counts.values();
  }
}
