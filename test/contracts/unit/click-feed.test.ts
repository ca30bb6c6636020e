// The ClickFeed contract on the feed of one instance (no Redis); Redis's: test/integration/state/click-feed.test.ts.
import { MemoryClickFeed } from '../../../src/adapters/live/memory-click-feed.ts';
import { describeClickFeedContract } from '../click-feed-contract.ts';

describeClickFeedContract('MemoryClickFeed', () => {
  const feed = new MemoryClickFeed(() => {});
  return { a: feed, b: feed, ready: () => Promise.resolve() };
});
