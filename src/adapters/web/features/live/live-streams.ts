import { PassThrough } from 'node:stream';
import type { ClickFeed, ClickTally } from '../../../../core/live/click-feed.ts';
import type { SessionEnds } from '../../../../core/live/session-ends.ts';

export interface LiveStreamOptions {
  /** A comment line this often keeps proxies from closing an idle stream; the session is checked again then. */
  heartbeatMs: number;
  /** Streams one person may hold open on this instance. */
  maxPerAccount: number;
  /** Bytes a browser may leave unread before its stream is ended (it reconnects and starts afresh). */
  maxUnread: number;
}

const LIVE_DEFAULTS: LiveStreamOptions = { heartbeatMs: 15_000, maxPerAccount: 8, maxUnread: 64 * 1024 };

/** How long a browser waits before reconnecting a stream that ended (EventSource's `retry`). */
const RETRY_MS = 3000;

/** What a live page hears of one tally: the account's clicks and each link's (no account id). */
function clicksEvent(tally: ClickTally): string {
  return `event: clicks\ndata: ${JSON.stringify({ clicks: tally.clicks, links: tally.links })}\n\n`;
}

/** Whose stream: the workspace whose tallies it hears and the person signed in (a personal workspace's id is its person's). */
export interface StreamOwner {
  workspaceId: number;
  personId: number;
}

/**
 * The Server-Sent Events streams this instance holds open, per person: each hears its own
 * workspace's tallies and nothing else, is capped per person, ends when its session or the
 * person's membership does (at once when `sessionEnds` says something of the person's ended,
 * else at the next heartbeat's check) and when the server stops, so a graceful stop is not held by it.
 */
export class LiveStreams {
  private readonly byPerson = new Map<number, Set<PassThrough>>();
  private closed = false;

  constructor(
    private readonly feed: ClickFeed,
    private readonly options: LiveStreamOptions = LIVE_DEFAULTS,
    private readonly sessionEnds?: SessionEnds,
  ) {}

  /** Streams open now, for one person or all. */
  count(personId?: number): number {
    if (personId !== undefined) return this.byPerson.get(personId)?.size ?? 0;
    let n = 0;
    for (const set of this.byPerson.values()) n += set.size;
    return n;
  }

  /**
   * A new stream of the workspace's clicks, or null when the person has their streams' worth
   * open (or the server is stopping). `signedIn` is asked at each heartbeat and whenever word
   * comes that one of the person's sessions or memberships ended: false ends the stream (a
   * failure to ask does not).
   */
  open(owner: StreamOwner, signedIn: () => Promise<boolean>): PassThrough | null {
    if (this.closed) return null;
    const { workspaceId, personId } = owner;
    let streams = this.byPerson.get(personId);
    if ((streams?.size ?? 0) >= this.options.maxPerAccount) return null;
    if (streams === undefined) this.byPerson.set(personId, (streams = new Set()));
    const stream = new PassThrough();
    streams.add(stream);
    const send = (text: string) => {
      if (stream.writableEnded || stream.destroyed) return;
      if (stream.readableLength + stream.writableLength > this.options.maxUnread) return void stream.destroy();
      stream.write(text);
    };
    const unsubscribe = this.feed.subscribe(workspaceId, (tally) => send(clicksEvent(tally)));
    const stillSignedIn = () =>
      signedIn().then(
        (yes) => {
          if (!yes) stream.end();
          return yes;
        },
        () => true,
      );
    const unhear = this.sessionEnds?.subscribe(personId, () => void stillSignedIn()) ?? (() => {});
    const heartbeat = setInterval(() => {
      void stillSignedIn().then((yes) => yes && send(': ping\n\n'));
    }, this.options.heartbeatMs);
    heartbeat.unref();
    const cleanUp = () => {
      clearInterval(heartbeat);
      unsubscribe();
      unhear();
      streams.delete(stream);
      if (streams.size === 0 && this.byPerson.get(personId) === streams) this.byPerson.delete(personId);
    };
    stream.once('close', cleanUp);
    stream.once('finish', cleanUp);
    send(`retry: ${RETRY_MS}\n: open\n\n`);
    return stream;
  }

  /** Ends every stream and refuses new ones: the server is stopping. */
  closeAll(): void {
    this.closed = true;
    for (const streams of this.byPerson.values()) for (const stream of streams) stream.end();
  }
}
