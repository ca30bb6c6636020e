import type { Redis } from 'ioredis';

const QUIT_WAIT_MS = 1000;

/**
 * One channel heard on a duplicate of `redis`, opened at the first `open()` (an instance with no
 * live stream holds no subscriber) and subscribed again at every (re)connection: SUBSCRIBE twice
 * is harmless, and covers a first one that failed. The live feeds' shared plumbing.
 */
export class ChannelSubscriber {
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly onError: (error: unknown) => void,
    private readonly onMessage: (message: string) => void,
  ) {}

  open(): void {
    if (this.subscriber !== null) return;
    const subscriber = (this.subscriber = this.redis.duplicate());
    subscriber.on('error', this.onError);
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).catch(this.onError);
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.onMessage(message);
    });
  }

  /** QUIT, waited on a second at most: a Redis that is away does not hold the stop. */
  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber === null) return;
    const quit = subscriber.quit().catch(() => undefined);
    await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, QUIT_WAIT_MS).unref())]);
    subscriber.disconnect();
  }
}
