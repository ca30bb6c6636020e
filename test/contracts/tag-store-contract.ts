// What every TagStore promises (src/core/tags/tag-store.ts), as the tags service and the links'
// views rely on it: run against the SQL store on both engines and the core's in-memory fake.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/core/shared/errors.ts';
import { colourFor } from '../../src/core/tags/tag-names.ts';
import type { Tag } from '../../src/core/tags/tag.ts';
import type { TagStore } from '../../src/core/tags/tag-store.ts';

export interface TagStoreSubject {
  tags: TagStore;
  account: () => Promise<number>;
  /** A new link of the account (a row where the store needs one). */
  link(accountId: number): Promise<number>;
}

const NOW = Date.UTC(2026, 0, 15, 12);
const namesOf = (tags: readonly Tag[]) => tags.map((t) => t.name);

export function describeTagStoreContract(name: string, make: () => TagStoreSubject): void {
  describe(`${name}: the TagStore contract`, () => {
    test('ensure creates the missing tags, finds the others ignoring case, and answers in the order asked', async () => {
      const s = make();
      const account = await s.account();
      const [news] = await s.tags.ensure(account, ['News'], NOW);
      assert.equal(news?.name, 'News');
      assert.equal(news?.accountId, account);
      assert.equal(news?.color, colourFor('News'));
      assert.equal(news?.createdAt, NOW);
      const again = await s.tags.ensure(account, ['sale', 'NEWS'], NOW + 1);
      assert.deepEqual(namesOf(again), ['sale', 'News'], 'an existing tag keeps its name as first typed');
      assert.equal(again[1]?.id, news?.id);
      assert.deepEqual(await s.tags.ensure(account, [], NOW), []);
      const other = await s.account();
      const [theirs] = await s.tags.ensure(other, ['news'], NOW);
      assert.notEqual(theirs?.id, news?.id, 'names are per account');
    });

    test('list: the account’s tags by name ignoring case, each with its number of links', async () => {
      const s = make();
      const [account, other] = [await s.account(), await s.account()];
      const [l1, l2] = [await s.link(account), await s.link(account)];
      const [zeta, alpha, beta] = await s.tags.ensure(account, ['zeta', 'Alpha', 'beta'], NOW);
      await s.tags.ensure(other, ['aaa'], NOW);
      await s.tags.setLinkTags(account, [l1, l2], [alpha!.id]);
      await s.tags.setLinkTags(account, [l2], [alpha!.id, zeta!.id]);
      const listed = await s.tags.list(account);
      assert.deepEqual(
        listed.map((t) => [t.name, t.links]),
        [
          ['Alpha', 2],
          ['beta', 0],
          ['zeta', 1],
        ],
      );
      assert.equal(listed[1]!.id, beta!.id);
    });

    test('list orders names by their lower case, code point by code point (as the SQL stores sort them)', async () => {
      const s = make();
      const account = await s.account();
      await s.tags.ensure(account, ['Ärger', 'zebra', 'Apfel', '_under'], NOW);
      assert.deepEqual(namesOf(await s.tags.list(account)), ['_under', 'Apfel', 'zebra', 'Ärger']);
    });

    test('setLinkTags replaces the tags of the account’s links only; tagsOfLinks reads them by name', async () => {
      const s = make();
      const [account, other] = [await s.account(), await s.account()];
      const [mine, theirs] = [await s.link(account), await s.link(other)];
      const [b, a] = await s.tags.ensure(account, ['b', 'A'], NOW);
      await s.tags.setLinkTags(account, [mine], [b!.id]);
      await s.tags.setLinkTags(account, [mine, theirs], [b!.id, a!.id]);
      const read = await s.tags.tagsOfLinks(account, [mine, theirs]);
      assert.deepEqual(namesOf(read.get(mine) ?? []), ['A', 'b']);
      assert.equal(read.has(theirs), false, "another account's link is skipped");
      assert.equal((await s.tags.tagsOfLinks(other, [theirs])).size, 0);
      await s.tags.setLinkTags(account, [mine], []);
      assert.equal(
        (await s.tags.tagsOfLinks(account, [mine])).size,
        0,
        'an empty list clears; a link without tags is absent',
      );
      assert.equal((await s.tags.tagsOfLinks(account, [])).size, 0);
    });

    test('findById and update are the account’s own; nameTaken ignores case and the tag itself', async () => {
      const s = make();
      const [account, other] = [await s.account(), await s.account()];
      const [red, blue] = await s.tags.ensure(account, ['Red', 'Blue'], NOW);
      assert.deepEqual(await s.tags.findById(account, red!.id), red);
      assert.equal(await s.tags.findById(other, red!.id), null);
      assert.equal(await s.tags.nameTaken(account, 'BLUE', red!.id), true);
      assert.equal(await s.tags.nameTaken(account, 'blue', blue!.id), false);
      assert.equal(await s.tags.nameTaken(other, 'blue', 0), false);
      const renamed = await s.tags.update(account, red!.id, { name: 'Crimson', color: 'pink' }, NOW + 5);
      assert.deepEqual(renamed, { ...red!, name: 'Crimson', color: 'pink', updatedAt: NOW + 5 });
      assert.deepEqual(await s.tags.findById(account, red!.id), renamed);
      assert.equal(await s.tags.update(other, red!.id, { name: 'Stolen' }, NOW), null);
      assert.equal(await s.tags.update(account, 999_999_999, { name: 'x' }, NOW), null);
    });

    test('a rename onto another tag’s name (in any case) is refused on the name', async () => {
      const s = make();
      const account = await s.account();
      const [one] = await s.tags.ensure(account, ['one', 'two'], NOW);
      await assert.rejects(
        s.tags.update(account, one!.id, { name: 'TWO' }, NOW),
        (e: unknown) => e instanceof ValidationError && Object.keys(e.fields).includes('name'),
      );
      assert.equal((await s.tags.findById(account, one!.id))?.name, 'one');
    });

    test('delete: the account’s own tag only; its links lose it and stay', async () => {
      const s = make();
      const [account, other] = [await s.account(), await s.account()];
      const link = await s.link(account);
      const [gone, kept] = await s.tags.ensure(account, ['gone', 'kept'], NOW);
      await s.tags.setLinkTags(account, [link], [gone!.id, kept!.id]);
      assert.equal(await s.tags.delete(other, gone!.id), false);
      assert.equal(await s.tags.delete(account, gone!.id), true);
      assert.equal(await s.tags.delete(account, gone!.id), false);
      assert.deepEqual(namesOf((await s.tags.tagsOfLinks(account, [link])).get(link) ?? []), ['kept']);
      assert.deepEqual(namesOf(await s.tags.list(account)), ['kept']);
    });
  });
}
