import type { Click } from '../../../core/clicks/click.ts';
import type { ClickSink, ClickTap } from '../../../core/clicks/ports.ts';

/**
 * The redirect's one sink, the chain of docs/design/clicks.md: each click goes to the writer's
 * sink (ColumnarClickSink) first, then to every tap in the order named (src/app/server.ts names
 * them: the webhooks' batcher, then the live tally). A flush or a close is the writer's sink's:
 * the taps hand on what they gather on their own.
 */
export function clickSinkChain(writer: ClickSink, taps: Readonly<Record<string, ClickTap>>): ClickSink {
  const inOrder = Object.values(taps);
  return {
    record(click: Click, rotation?: number): void {
      writer.record(click, rotation);
      for (const tap of inOrder) tap.take(click);
    },
    flush: () => writer.flush(),
    close: () => writer.close(),
  };
}
