import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../core/clicks/click.ts';
import type { ClickTally } from '../../core/live/click-feed.ts';
import { FakeSink } from '../../../test/support/fakes/visit-fakes.ts';
import { aClick } from '../../../test/support/clicks.ts';
import { MemoryClickFeed } from './memory-click-feed.ts';
import { LiveClickTap } from './live-click-tap.ts';
import { clickSinkChain } from '../clicks/sink/sink-chain.ts';

const click = (accountId: number, linkId: number, isBot = false): Click => aClick({ accountId, linkId, isBot });

function tapped() {
  const feed = new MemoryClickFeed();
  const published: ClickTally[][] = [];
  const publish = feed.publish.bind(feed);
  feed.publish = (tallies) => {
    published.push([...tallies]);
    publish(tallies);
  };
  const live = new LiveClickTap(feed, 250);
  const sink = new FakeSink();
  return { feed, published, live, sink, tap: clickSinkChain(sink, { live }) };
}

test('a burst of clicks is one publish per interval, summed per account; the sink gets every click', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { published, sink, tap } = tapped();
  for (let i = 0; i < 100; i++) tap.record(click(1, 10 + (i % 2)), i);
  tap.record(click(2, 20));
  tap.record(click(2, 20, true));
  assert.equal(sink.recorded.length, 102);
  assert.equal(sink.recorded[5]!.rotation, 5);
  assert.equal(published.length, 0, 'nothing before the interval');
  t.mock.timers.tick(249);
  assert.equal(published.length, 0);
  t.mock.timers.tick(1);
  assert.deepEqual(published, [
    [
      { accountId: 1, clicks: 100, links: { 10: 50, 11: 50 } },
      { accountId: 2, clicks: 1, links: { 20: 1 } },
    ],
  ]);
  // Idle: no timer, no publish.
  t.mock.timers.tick(10_000);
  assert.equal(published.length, 1);
  tap.record(click(1, 10));
  t.mock.timers.tick(250);
  assert.deepEqual(published[1], [{ accountId: 1, clicks: 1, links: { 10: 1 } }]);
});

test('bots alone start no timer and publish nothing', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { published, tap } = tapped();
  tap.record(click(1, 10, true));
  t.mock.timers.tick(1000);
  assert.deepEqual(published, []);
});

test('close publishes what was gathered; later clicks reach the sink only', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { published, sink, live, tap, feed } = tapped();
  const heard: ClickTally[] = [];
  feed.subscribe(1, (tally) => heard.push(tally));
  tap.record(click(1, 10));
  live.close();
  assert.deepEqual(heard, [{ accountId: 1, clicks: 1, links: { 10: 1 } }]);
  tap.record(click(1, 10));
  t.mock.timers.tick(1000);
  assert.equal(published.length, 1);
  assert.equal(sink.recorded.length, 2);
});
