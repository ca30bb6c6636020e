import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PassThrough } from 'node:stream';
import { MemoryClickFeed } from '../../../live/memory-click-feed.ts';
import { MemorySessionEnds } from '../../../live/memory-session-ends.ts';
import { LiveStreams } from './live-streams.ts';

const options = { heartbeatMs: 20, maxPerAccount: 2, maxUnread: 1024 };

/** Everything the stream has said so far, and whether it ended. */
function read(stream: PassThrough) {
  const seen = { text: '', ended: false };
  stream.on('data', (chunk: Buffer) => (seen.text += chunk.toString()));
  stream.on('end', () => (seen.ended = true));
  return seen;
}

/** A personal workspace's stream: the workspace's id is its person's. */
const own = (id: number) => ({ workspaceId: id, personId: id });

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a stream hears its account's tallies, never another's, as Server-Sent Events", async () => {
  const feed = new MemoryClickFeed();
  const streams = new LiveStreams(feed, options);
  const seen = read(streams.open(own(1), async () => true)!);
  feed.publish([
    { accountId: 2, clicks: 9, links: { 20: 9 } },
    { accountId: 1, clicks: 3, links: { 10: 2, 11: 1 } },
  ]);
  await tick(0);
  assert.match(seen.text, /^retry: \d+\n/);
  assert.match(seen.text, /event: clicks\ndata: \{"clicks":3,"links":\{"10":2,"11":1\}\}\n\n/);
  assert.doesNotMatch(seen.text, /"20"/);
  streams.closeAll();
});

test('streams are capped per account; a closed one frees its place and its subscription', async () => {
  const feed = new MemoryClickFeed();
  const streams = new LiveStreams(feed, options);
  const first = streams.open(own(1), async () => true)!;
  assert.ok(streams.open(own(1), async () => true));
  assert.equal(
    streams.open(own(1), async () => true),
    null,
  );
  assert.ok(
    streams.open(own(2), async () => true),
    'another account has places of its own',
  );
  first.destroy();
  await tick(0);
  assert.equal(streams.count(1), 1);
  assert.ok(streams.open(own(1), async () => true));
  streams.closeAll();
});

test('heartbeats keep the stream; a session that ended ends it', async () => {
  const feed = new MemoryClickFeed();
  const streams = new LiveStreams(feed, options);
  let signedIn = true;
  const seen = read(streams.open(own(1), async () => signedIn)!);
  await tick(50);
  assert.match(seen.text, /: ping\n\n/);
  assert.equal(seen.ended, false);
  signedIn = false;
  await tick(50);
  assert.equal(seen.ended, true);
  assert.equal(streams.count(), 0);
});

test('a browser that reads nothing is let go past the unread bytes', async () => {
  const feed = new MemoryClickFeed();
  const streams = new LiveStreams(feed, { ...options, heartbeatMs: 60_000 });
  const stream = streams.open(own(1), async () => true)!;
  for (let i = 0; i < 200 && !stream.destroyed; i++) feed.publish([{ accountId: 1, clicks: 1, links: { 10: 1 } }]);
  assert.equal(stream.destroyed, true);
  await tick(0);
  assert.equal(streams.count(), 0);
});

test('closeAll ends every stream and refuses new ones (the server is stopping)', async () => {
  const feed = new MemoryClickFeed();
  const streams = new LiveStreams(feed, options);
  const a = read(streams.open(own(1), async () => true)!);
  const b = read(streams.open(own(2), async () => true)!);
  streams.closeAll();
  await tick(0);
  assert.equal(a.ended && b.ended, true);
  assert.equal(
    streams.open(own(1), async () => true),
    null,
  );
});

test("word of a session's end ends at once the account's streams whose session is gone, and only those", async () => {
  const feed = new MemoryClickFeed();
  const ends = new MemorySessionEnds();
  const streams = new LiveStreams(feed, { ...options, heartbeatMs: 60_000 }, ends);
  const live = new Set(['kept', 'gone', 'theirs']);
  const gone = read(streams.open(own(1), async () => live.has('gone'))!);
  const kept = read(streams.open(own(1), async () => live.has('kept'))!);
  const theirs = read(streams.open(own(2), async () => live.has('theirs'))!);
  live.delete('gone');
  live.delete('theirs');
  ends.publish(1);
  await tick(10);
  assert.equal(gone.ended, true, 'ended without waiting for a heartbeat');
  assert.equal(kept.ended, false, 'a session still signed in keeps its stream');
  assert.equal(theirs.ended, false, "another account's word is not this one's");
  assert.equal(streams.count(1), 1);
  streams.closeAll();
});
