// LinksService.bulk on real databases: the one-by-one rules applied to many links, a chunk at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { LinksService } from '../../../src/core/links/links-service.ts';
import { BULK_CHUNK } from '../../../src/core/links/link-bulk.ts';
import { LinkStatus, type LinkFilter } from '../../../src/core/links/link.ts';
import { ValidationError } from '../../../src/core/shared/errors.ts';
import { systemClock } from '../../../src/core/shared/clock.ts';
import { UrlPolicy } from '../../../src/core/links/url-policy.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { SqlSpaceStore } from '../../../src/adapters/storage/stores/space-store.ts';
import { SqlDomainStore } from '../../../src/adapters/storage/stores/domain-store.ts';
import { SqlPixelStore } from '../../../src/adapters/storage/stores/pixel-store.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

/** The service over the harness's database, telling which links it invalidated and forgot. */
function recordingService(h: Harness) {
  const db = h.server.container.storage.db;
  const changed: number[] = [];
  const forgotten: number[] = [];
  const links = new LinksService({
    links: new SqlLinkStore(db, h.server.container.storage.engine),
    spaces: new SqlSpaceStore(db),
    domains: new SqlDomainStore(db),
    pixels: new SqlPixelStore(db),
    clock: systemClock,
    urls: new UrlPolicy(['http', 'https']),
    titles: null,
    invalidation: { linkChanged: (id) => changed.push(id), accountChanged: () => {} },
    forgetQuota: async (id) => {
      forgotten.push(id);
    },
  });
  return { links, changed, forgotten };
}

async function makeLinks(links: LinksService, accountId: number, count: number, title: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        links.create(accountId, 'UTC', { url: `https://example.com/${i + j}`, title }, TEST_ACTOR),
      ),
    );
    ids.push(...batch.map((v) => v.link.id));
  }
  return ids.sort((a, b) => a - b);
}

const filter = (search: string, status: LinkStatus = LinkStatus.All): LinkFilter => ({
  search,
  by: 'title',
  status,
  sort: 'desc',
});

onEachEngine('LinksService.bulk', (h) => {
  test('all matching links, over several chunks, even as the change takes them out of the filter', async () => {
    const { links, changed, forgotten } = recordingService(h());
    const { id: accountId } = await h().account();
    const count = 2 * BULK_CHUNK + 3;
    const ids = await makeLinks(links, accountId, count, 'many');
    const other = await makeLinks(links, accountId, 2, 'other');
    changed.length = 0; // creating invalidates too

    assert.equal(await links.countTargeted(accountId, { filter: filter('many', LinkStatus.Active) }), count);
    assert.equal(
      await links.bulk(accountId, { kind: 'disable' }, { filter: filter('many', LinkStatus.Active) }, TEST_ACTOR),
      count,
    );
    assert.deepEqual(
      [...changed].sort((a, b) => a - b),
      ids,
    );
    const disabled = await links.list(accountId, filter('', LinkStatus.Disabled), { page: 1, perPage: 10 });
    assert.equal(disabled.total, count);

    const exported = [];
    for await (const chunk of links.exportChunks(accountId, { filter: filter('many') }))
      exported.push(...chunk.map((v) => v.link.id));
    assert.deepEqual(exported, ids, 'exported in id order, every one');

    assert.equal(await links.bulk(accountId, { kind: 'delete' }, { filter: filter('many') }, TEST_ACTOR), count);
    assert.deepEqual(
      [...forgotten].sort((a, b) => a - b),
      ids,
    );
    const left = await links.list(accountId, filter(''), { page: 1, perPage: 10 });
    assert.deepEqual(
      left.items.map((v) => v.link.id).sort((a, b) => a - b),
      other,
    );
  });

  test("another account's ids are skipped and not counted; duplicates count once", async () => {
    const { links, changed } = recordingService(h());
    const { id: mine } = await h().account();
    const { id: theirs } = await h().account();
    const [own] = await makeLinks(links, mine, 1, 'own');
    const [foreign] = await makeLinks(links, theirs, 1, 'foreign');
    changed.length = 0;
    assert.equal(await links.bulk(mine, { kind: 'disable' }, { ids: [own!, foreign!, own!] }, TEST_ACTOR), 1);
    assert.deepEqual(changed, [own]);
    assert.equal(await links.bulk(mine, { kind: 'delete' }, { ids: [foreign!] }, TEST_ACTOR), 0);
    assert.equal(await links.countTargeted(mine, { ids: [foreign!, own!] }), 1);
    const kept = await links.get(theirs, foreign!);
    assert.equal(kept.link.disabled, 0);
  });

  test("a move to another account's space is refused before anything changes", async () => {
    const { links, changed } = recordingService(h());
    const { id: mine } = await h().account();
    const { id: theirs } = await h().account();
    const space = await h().server.container.spaces.create(theirs, { name: 'theirs' }, TEST_ACTOR);
    const ownSpace = await h().server.container.spaces.create(mine, { name: 'mine' }, TEST_ACTOR);
    const [own] = await makeLinks(links, mine, 1, 'own');
    changed.length = 0;
    await assert.rejects(
      links.bulk(mine, { kind: 'move', spaceId: space.id }, { ids: [own!] }, TEST_ACTOR),
      (e) => e instanceof ValidationError && 'space' in e.fields,
    );
    assert.deepEqual(changed, []);
    assert.equal(await links.bulk(mine, { kind: 'move', spaceId: ownSpace.id }, { ids: [own!] }, TEST_ACTOR), 1);
    assert.equal((await links.get(mine, own!)).space?.id, ownSpace.id);
    assert.equal(await links.bulk(mine, { kind: 'move', spaceId: null }, { ids: [own!] }, TEST_ACTOR), 1);
    assert.equal((await links.get(mine, own!)).space, null);
  });
});
