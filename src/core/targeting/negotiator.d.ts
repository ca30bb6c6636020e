// negotiator ships no types: the one constructor and method the core calls (docs/architecture.md,
// "Libraries core may use").
declare module 'negotiator' {
  class Negotiator {
    constructor(request: { headers: Record<string, string | undefined> });
    /** The Accept-Language header's tags as written, best first (by q, then by position); q=0 dropped. */
    languages(): string[];
  }
  export = Negotiator;
}
