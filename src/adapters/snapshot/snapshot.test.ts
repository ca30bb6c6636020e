// The redirect snapshot (issue 50): written whole, mode 0600, only when something changed; read
// back verified (a damaged or foreign file is refused with one line, never served); and, under the
// link cache, the answer for a link not held while the database cannot be read, unless a change
// told after the file was written concerns it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DomainNameSource, RedirectLink, RedirectLinkSource } from '../../core/redirect/redirect-link.ts';
import type { SnapshotDomain, SnapshotRow, SnapshotSource } from '../../core/redirect/redirect-snapshot.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import { TargetType } from '../../core/targeting/target.ts';
import { emptyTargets } from '../../core/targeting/targeting-rules.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';
import { CachedRedirectSource } from '../cache/cached-redirect-source.ts';
import { snapshotOrigin, type SnapshotSecrets } from './snapshot-format.ts';
import { SnapshotReader } from './snapshot-reader.ts';
import { SnapshotWriter } from './snapshot-writer.ts';

const APP_HOST = 'short.test';
const ORIGIN = snapshotOrigin('http://short.test');
const SECRETS: SnapshotSecrets = { unlockCookie: 'u'.repeat(43), visitorHash: 'v'.repeat(43), clickId: 'c'.repeat(43) };

/** A plain link as the snapshot keeps it: the support module's link, its rules as written (none). */
function row(id: number, alias: string, host: string | null = null): SnapshotRow {
  const { rules: _compiled, ...link } = aRedirectLink({
    id,
    accountId: 1,
    domainId: host === null ? null : 7,
    alias,
    url: `https://example.com/${alias}`,
  });
  return { host, link: { ...link, ruleSource: { rules: null, targetType: TargetType.None, targets: emptyTargets() } } };
}

/** Links in id order, a page at a time as the database answers; `down` fails as the pool does. */
class FakeSource implements SnapshotSource, RedirectLinkSource, DomainNameSource {
  rows: SnapshotRow[] = [];
  domains: SnapshotDomain[] = [
    {
      name: 'brand.test',
      id: 7,
      accountId: 1,
      indexPage: null,
      notFoundPage: null,
      appleAppSiteAssociation: null,
      assetLinks: null,
    },
  ];
  down = false;
  pages = 0;

  async snapshotPage(afterId: number, limit: number): Promise<SnapshotRow[]> {
    this.pages++;
    if (this.down) throw new UnavailableError('database');
    return this.rows.filter((r) => r.link.id > afterId).slice(0, limit);
  }
  async snapshotDomains(): Promise<SnapshotDomain[]> {
    if (this.down) throw new UnavailableError('database');
    return this.domains;
  }
  async find(): Promise<RedirectLink | null> {
    if (this.down) throw new UnavailableError('database');
    return null;
  }
  async domain() {
    if (this.down) throw new UnavailableError('database');
    return null;
  }
  async domainNames(): Promise<string[]> {
    if (this.down) throw new UnavailableError('database');
    return ['brand.test'];
  }
}

function setup() {
  const path = join(mkdtempSync(join(tmpdir(), 'linkpix-snapshot-test-')), 'redirects.snapshot');
  const source = new FakeSource();
  for (let i = 1; i <= 1200; i++) source.rows.push(row(i, `a${i}`));
  source.rows.push(row(2000, 'Brand', 'brand.test'));
  let t = 1_700_000_000_000;
  const now = () => t;
  const refused: string[] = [];
  let expected: string | null = null;
  let written = 0;
  const reader = new SnapshotReader({
    path,
    origin: ORIGIN,
    appHost: APP_HOST,
    expectedKeyId: () => expected,
    onRefused: (reason) => void refused.push(reason),
  });
  const writer = new SnapshotWriter(source, {
    path,
    origin: ORIGIN,
    secrets: async () => SECRETS,
    now,
    onWritten: (_links, header) => {
      written++;
      expected = header.keyId;
      reader.discard();
    },
  });
  return {
    path,
    source,
    reader,
    writer,
    refused,
    written: () => written,
    tick: (ms: number) => void (t += ms),
    now,
    setExpected: (id: string | null) => void (expected = id),
  };
}

test('the writer writes every link a page at a time, mode 0600, and again only once something changed', async () => {
  const s = setup();
  await s.writer.round();
  assert.equal(s.written(), 1);
  assert.equal(statSync(s.path).mode & 0o777, 0o600);
  assert.ok(s.source.pages >= 3, 'read a page at a time');
  await s.writer.round();
  assert.equal(s.written(), 1, 'nothing changed: no write');
  s.writer.changed();
  await s.writer.round();
  assert.equal(s.written(), 2);

  const loaded = await s.reader.load();
  assert.ok(loaded);
  assert.equal(loaded.size, 1201);
  assert.equal(loaded.link(APP_HOST, 'a1200')?.url, 'https://example.com/a1200');
  assert.equal(loaded.link('brand.test', 'brand')?.url, 'https://example.com/Brand');
  assert.equal(loaded.link(APP_HOST, 'brand'), undefined, "a domain's link is not the app host's");
  assert.equal(typeof loaded.link(APP_HOST, 'a1')?.rules.decide, 'function', 'its rules compiled');
  assert.deepEqual(loaded.secrets, SECRETS);
  assert.equal(loaded.domain('brand.test')?.id, 7);
});

test('a database that is away leaves the last file, and the next round writes', async () => {
  const s = setup();
  await s.writer.round();
  const before = readFileSync(s.path);
  s.writer.changed();
  s.source.down = true;
  await s.writer.round(); // no throw: the outage is told elsewhere
  assert.deepEqual(readFileSync(s.path), before);
  s.source.down = false;
  await s.writer.round();
  assert.equal(s.written(), 2);
});

test('a damaged, cut, foreign or missing file is refused with one line and never served', async () => {
  const s = setup();
  assert.equal(await s.reader.load(), null);
  assert.equal(await s.reader.load(), null);
  assert.equal(s.refused.length, 1, 'one line per file');
  assert.match(s.refused[0]!, /cannot be read/);

  await s.writer.round();
  const good = readFileSync(s.path);
  const damaged = Buffer.from(good);
  const middle = Math.floor(good.length / 2);
  damaged[middle] = damaged[middle]! ^ 1;
  const cases: Array<[string, Buffer, RegExp]> = [
    ['damaged', damaged, /checksum/],
    ['cut', good.subarray(0, good.length - 10), /cut short|checksum/],
    ['another format', Buffer.from(good.toString().replace('snapshot 1', 'snapshot 9')), /format version/],
  ];
  for (const [what, bytes, reason] of cases) {
    writeFileSync(s.path, bytes);
    s.reader.discard();
    assert.equal(await s.reader.load(), null, what);
    assert.match(s.refused.at(-1)!, reason, what);
  }
  writeFileSync(s.path, good);
  s.setExpected('another-key');
  s.reader.discard();
  assert.equal(await s.reader.load(), null, "another deployment's secrets");
  assert.match(s.refused.at(-1)!, /another deployment/);
  const foreign = new SnapshotReader({ path: s.path, origin: snapshotOrigin('https://other.test'), appHost: APP_HOST });
  assert.equal(await foreign.load(), null, 'another APP_URL');
});

test('under the cache: the database away, a link not held answers from the snapshot; one changed after it, 503', async () => {
  const s = setup();
  await s.writer.round();
  s.tick(5000);
  const cache = new CachedRedirectSource(s.source, {
    ttlMs: 1000,
    missTtlMs: 1000,
    maxEntries: 100,
    appHost: APP_HOST,
    snapshot: s.reader,
    now: s.now,
  });
  await cache.ready();
  s.source.down = true;
  assert.equal((await cache.find(APP_HOST, 'a5'))?.url, 'https://example.com/a5');
  assert.equal((await cache.find('brand.test', 'BRAND'))?.url, 'https://example.com/Brand');
  assert.equal((await cache.find('unknown.test', 'a6'))?.url, 'https://example.com/a6', 'any other host is the app’s');
  assert.equal(cache.counts.snapshot, 3);
  assert.equal(await cache.snapshotServes(), true);

  cache.linkChanged(5, 'a5');
  await assert.rejects(cache.find(APP_HOST, 'a5'), UnavailableError, 'changed after the snapshot: 503');
  cache.accountChanged(1);
  await assert.rejects(cache.find(APP_HOST, 'a7'), UnavailableError, 'its owner changed after the snapshot: 503');
  await assert.rejects(cache.find(APP_HOST, 'nothere'), UnavailableError, 'not in the snapshot: 503, as without it');
});

test('a start during the outage: the domain names never loaded, the snapshot still answers', async () => {
  const s = setup();
  await s.writer.round();
  s.source.down = true;
  const cache = new CachedRedirectSource(s.source, {
    ttlMs: 1000,
    missTtlMs: 1000,
    maxEntries: 100,
    appHost: APP_HOST,
    snapshot: s.reader,
    now: s.now,
  });
  await assert.rejects(cache.ready(), UnavailableError);
  cache.databaseFailed(new UnavailableError('database'));
  assert.equal((await cache.find(APP_HOST, 'a1'))?.url, 'https://example.com/a1');
  assert.equal((await cache.find('brand.test', 'brand'))?.url, 'https://example.com/Brand');
  assert.equal((await cache.domain('brand.test'))?.id, 7);
});

test('a large file is read a piece at a time, the event loop turning between pieces; lines and characters cut by a piece are whole', async () => {
  const s = setup();
  s.source.rows = [];
  // Characters of two to four bytes, so that pieces end inside them; one line longer than a piece.
  for (let i = 1; i <= 6000; i++) {
    const r = row(i, `é${i}`);
    r.link.url = `https://example.com/${'ü€🙂'.repeat(40)}/${i}`;
    s.source.rows.push(r);
  }
  s.source.rows[2999]!.link.url = `https://example.com/${'ß🙂'.repeat(100_000)}`;
  await s.writer.round();
  const bytes = statSync(s.path).size;
  assert.ok(bytes > 3 * 256 * 1024, `a file of several pieces (${bytes} bytes)`);

  let turns = 0;
  let probing = true;
  const probe = () => {
    turns++;
    if (probing) setImmediate(probe);
  };
  setImmediate(probe);
  const loaded = await s.reader.load();
  probing = false;
  assert.ok(loaded);
  assert.equal(loaded.size, 6000);
  assert.ok(turns >= Math.floor(bytes / (256 * 1024)), `the event loop turned between pieces (${turns} turns)`);
  for (const i of [1, 2999, 3001, 6000]) {
    assert.equal(loaded.link(APP_HOST, `é${i}`)?.url, s.source.rows[i - 1]!.link.url, `link ${i}`);
  }
  assert.equal(loaded.link(APP_HOST, 'é3000')?.url, `https://example.com/${'ß🙂'.repeat(100_000)}`);
  assert.deepEqual(s.refused, []);
});
