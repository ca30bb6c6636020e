// What every LinkStore promises (src/core/links/link-store.ts), as the links service, the bulk
// actions, the importer and the expiry sweep rely on it: run against the SQL store on both engines
// (integration) and the core's in-memory fake (unit). Each test names the methods it calls; a fake
// that leaves some out (they throw "not used") has those tests reported as skipped, not passed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/core/shared/errors.ts';
import type { LinkStore } from '../../src/core/links/link-store.ts';
import { LinkStatus, type Link, type LinkFields, type LinkFilter } from '../../src/core/links/link.ts';
import { PRIVATE_STATS, newLinkFields } from '../../src/core/links/new-link-fields.ts';

export interface LinkStoreSubject {
  links: LinkStore;
  /** A new account, with a row where the store needs one. */
  account: () => Promise<number>;
  /** A new domain, space or pixel of the account (a row where the store needs one). */
  domain(accountId: number): Promise<number>;
  space(accountId: number): Promise<number>;
  pixel(accountId: number): Promise<number>;
  /** Sets a link's click count, as the click writer does outside this port. */
  setClicks(linkId: number, clicks: number): Promise<void>;
}

export interface LinkStoreContractOptions {
  /** The methods the subject has, when not all of them (a fake made for a few tests). */
  has?: ReadonlyArray<keyof LinkStore>;
}

type Method = keyof LinkStore;

const NOW = Date.UTC(2026, 0, 15, 12);
let aliases = 0;
/** An alias no other test of the run uses (a store's aliases are unique per domain across accounts). */
const fresh = (stem = 'c') => `${stem}${Date.now().toString(36)}${(++aliases).toString(36)}`;

const fieldsOf = (over: Partial<LinkFields> = {}): LinkFields => ({
  ...newLinkFields(null, null, PRIVATE_STATS),
  alias: fresh(),
  url: 'https://example.com/page',
  ...over,
});

const filterOf = (over: Partial<LinkFilter> = {}): LinkFilter => ({
  by: 'title',
  status: LinkStatus.All,
  sort: 'desc',
  ...over,
});
const page = (n: number, perPage = 10) => ({ page: n, perPage });
const idsOf = (links: readonly Link[]) => links.map((l) => l.id);

function isAliasTaken(error: unknown): boolean {
  return error instanceof ValidationError && Object.keys(error.fields).includes('alias');
}

export function describeLinkStoreContract(
  name: string,
  make: () => LinkStoreSubject,
  options: LinkStoreContractOptions = {},
): void {
  describe(`${name}: the LinkStore contract`, () => {
    /** A test that calls these methods: skipped, and said so, on a subject without them. */
    const it = (title: string, uses: Method[], fn: (s: LinkStoreSubject) => Promise<void>) => {
      const missing = options.has ? uses.filter((m) => !options.has!.includes(m)) : [];
      test(title, { skip: missing.length > 0 ? `${name} has no ${missing.join(', ')}` : false }, () => fn(make()));
    };
    /** Links made through insertMany (every subject has it), in order. */
    const seed = async (
      s: LinkStoreSubject,
      accountId: number,
      many: Array<Partial<LinkFields> & { pixelIds?: number[] }>,
      now = NOW,
    ) => {
      const ids = await s.links.insertMany(
        accountId,
        many.map(({ pixelIds, ...over }) => ({ fields: fieldsOf(over), pixelIds: pixelIds ?? [] })),
        now,
      );
      return ids;
    };

    it(
      'insertMany answers the new ids in the order given; findByIds reads the links back as written',
      ['insertMany', 'findByIds'],
      async (s) => {
        const account = await s.account();
        const [p1, p2] = [await s.pixel(account), await s.pixel(account)];
        const space = await s.space(account);
        const made = [
          fieldsOf({
            alias: fresh('Mixed'),
            title: 'First',
            spaceId: space,
            endsAt: NOW + 60_000,
            expirationClicks: 5,
            expirationUrl: 'https://example.com/gone',
          }),
          fieldsOf({ disabled: 1, privacy: 0, passwordHash: 'h', privacyPasswordHash: 'p' }),
        ];
        const ids = await s.links.insertMany(
          account,
          [
            { fields: made[0]!, pixelIds: [p2, p1] },
            { fields: made[1]!, pixelIds: [] },
          ],
          NOW,
        );
        assert.equal(ids.length, 2);
        assert.ok(ids[0]! < ids[1]!, 'ids grow in the order given');
        const read = await s.links.findByIds(account, ids);
        assert.deepEqual(idsOf(read), ids);
        for (const [i, link] of read.entries()) {
          for (const [key, value] of Object.entries(made[i]!))
            assert.deepEqual(link[key as keyof Link], value, `${key} of link ${i}`);
          assert.equal(link.accountId, account);
          assert.equal(link.clicks, 0);
          assert.equal(link.lastRotation, 0);
          assert.equal(link.blockedAt, null);
          assert.equal(link.createdAt, NOW);
          assert.equal(link.updatedAt, NOW);
        }
        assert.deepEqual(
          read[0]!.pixelIds,
          [p1, p2].sort((a, b) => a - b),
          'pixel ids in ascending order',
        );
        assert.deepEqual(read[1]!.pixelIds, []);
        assert.deepEqual(await s.links.insertMany(account, [], NOW), []);
      },
    );

    it(
      'insertMany: an alias taken on the domain (in any case, by any account) refuses the whole batch',
      ['insertMany', 'aliasOwners'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const taken = fresh('Taken');
        await seed(s, theirs, [{ alias: taken }]);
        const spared = fresh();
        await assert.rejects(seed(s, mine, [{ alias: spared }, { alias: taken.toUpperCase() }]), isAliasTaken);
        const twice = fresh();
        await assert.rejects(
          seed(s, mine, [{ alias: twice }, { alias: twice.toUpperCase() }]),
          isAliasTaken,
          'two of one batch',
        );
        assert.equal(
          (await s.links.aliasOwners(null, [spared.toLowerCase(), twice.toLowerCase()])).size,
          0,
          'nothing of a refused batch is written',
        );
        const domain = await s.domain(mine);
        assert.equal((await seed(s, mine, [{ alias: taken, domainId: domain }])).length, 1, 'another domain: free');
      },
    );

    it(
      'aliasOwners: of the lower-cased aliases asked, those taken on that domain, by any account',
      ['insertMany', 'aliasOwners'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const domain = await s.domain(mine);
        const [a, b, c] = [fresh('A'), fresh('B'), fresh('C')];
        const [idA] = await seed(s, mine, [{ alias: a }]);
        const [idB] = await seed(s, theirs, [{ alias: b }]);
        const [idC] = await seed(s, mine, [{ alias: c, domainId: domain }]);
        const keys = [a, b, c, 'nobody-has-this'].map((k) => k.toLowerCase());
        const onDefault = await s.links.aliasOwners(null, keys);
        assert.deepEqual(
          new Map([...onDefault].sort()),
          new Map([
            [a.toLowerCase(), { id: idA!, accountId: mine }],
            [b.toLowerCase(), { id: idB!, accountId: theirs }],
          ]),
        );
        assert.deepEqual(
          [...(await s.links.aliasOwners(domain, keys))],
          [[c.toLowerCase(), { id: idC!, accountId: mine }]],
        );
        assert.equal((await s.links.aliasOwners(null, [])).size, 0);
      },
    );

    it(
      "findByIds: the account's links among the ids, by id; others and unknown ids are skipped",
      ['insertMany', 'findByIds'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const ids = await seed(s, mine, [{}, {}, {}]);
        const [foreign] = await seed(s, theirs, [{}]);
        assert.deepEqual(idsOf(await s.links.findByIds(mine, [ids[2]!, foreign!, ids[0]!, 999_999_999])), [
          ids[0],
          ids[2],
        ]);
        assert.deepEqual(await s.links.findByIds(mine, []), []);
        assert.deepEqual(await s.links.findByIds(theirs, ids), []);
      },
    );

    it(
      'update sets the fields given and updatedAt; pixels: undefined keeps, a list replaces; another account’s link is null',
      ['insertMany', 'update', 'findByIds'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const [p1, p2, p3] = [await s.pixel(mine), await s.pixel(mine), await s.pixel(mine)];
        const [id] = await seed(s, mine, [{ title: 'Before', url: 'https://example.com/a', pixelIds: [p1] }]);
        const later = NOW + 1000;
        const updated = await s.links.update(mine, id!, { title: 'After' }, undefined, later);
        assert.equal(updated?.title, 'After');
        assert.equal(updated?.url, 'https://example.com/a', 'a field not given stays');
        assert.deepEqual(updated?.pixelIds, [p1]);
        assert.equal(updated?.createdAt, NOW);
        assert.equal(updated?.updatedAt, later);
        assert.deepEqual(
          (await s.links.update(mine, id!, {}, [p3, p2], later))?.pixelIds,
          [p2, p3].sort((a, b) => a - b),
        );
        assert.deepEqual((await s.links.update(mine, id!, {}, [], later))?.pixelIds, []);
        assert.equal(await s.links.update(theirs, id!, { title: 'Stolen' }, [], later), null);
        assert.equal(await s.links.update(mine, 999_999_999, { title: 'x' }, undefined, later), null);
        assert.equal(
          (await s.links.findByIds(mine, [id!]))[0]?.title,
          'After',
          "another account's update changed nothing",
        );
      },
    );

    it(
      'update to an alias taken on the domain (in any case) is refused; its own alias in another case is not',
      ['insertMany', 'update', 'findByIds'],
      async (s) => {
        const mine = await s.account();
        const [a, b] = [fresh('Own'), fresh('Other')];
        const [idA] = await seed(s, mine, [{ alias: a }, { alias: b }]);
        await assert.rejects(s.links.update(mine, idA!, { alias: b.toUpperCase() }, undefined, NOW), isAliasTaken);
        assert.equal((await s.links.findByIds(mine, [idA!]))[0]?.alias, a, 'a refused update changes nothing');
        assert.equal(
          (await s.links.update(mine, idA!, { alias: a.toUpperCase() }, undefined, NOW))?.alias,
          a.toUpperCase(),
        );
      },
    );

    it(
      'insert, findById and findAnyById: one account sees its own links only; anyone’s by findAnyById',
      ['insert', 'findById', 'findAnyById'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const pixel = await s.pixel(mine);
        const fields = fieldsOf({ title: 'One' });
        const made = await s.links.insert(mine, fields, [pixel], NOW);
        assert.equal(made.alias, fields.alias);
        assert.deepEqual(made.pixelIds, [pixel]);
        assert.equal(made.clicks, 0);
        assert.deepEqual(await s.links.findById(mine, made.id), made);
        assert.equal(await s.links.findById(theirs, made.id), null);
        assert.deepEqual(await s.links.findAnyById(made.id), made);
        assert.equal(await s.links.findAnyById(999_999_999), null);
      },
    );

    it(
      'insert of a taken alias is refused; aliasTaken ignores case, is per domain and may leave one link out',
      ['insert', 'aliasTaken'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const domain = await s.domain(mine);
        const alias = fresh('Case');
        const made = await s.links.insert(mine, fieldsOf({ alias }), [], NOW);
        await assert.rejects(s.links.insert(theirs, fieldsOf({ alias: alias.toLowerCase() }), [], NOW), isAliasTaken);
        assert.equal(await s.links.aliasTaken(null, alias.toUpperCase()), true);
        assert.equal(await s.links.aliasTaken(null, alias, made.id), false, 'the link itself left out');
        assert.equal(await s.links.aliasTaken(domain, alias), false);
        assert.equal(await s.links.aliasTaken(null, fresh()), false);
      },
    );

    it(
      'delete and deleteMany remove the account’s own links only, and say which',
      ['insertMany', 'delete', 'deleteMany', 'findByIds'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const ids = await seed(s, mine, [{}, {}, {}]);
        const [foreign] = await seed(s, theirs, [{}]);
        assert.equal(await s.links.delete(theirs, ids[0]!), false);
        assert.equal(await s.links.delete(mine, ids[0]!), true);
        assert.equal(await s.links.delete(mine, ids[0]!), false, 'gone already');
        assert.deepEqual((await s.links.deleteMany(mine, [ids[1]!, foreign!, ids[0]!])).sort(), [ids[1]!]);
        assert.deepEqual(await s.links.deleteMany(mine, []), []);
        assert.deepEqual(idsOf(await s.links.findByIds(mine, ids)), [ids[2]]);
        assert.deepEqual(idsOf(await s.links.findByIds(theirs, [foreign!])), [foreign]);
      },
    );

    it(
      'updateMany and setPixelsMany change the account’s links among the ids and answer those',
      ['insertMany', 'updateMany', 'setPixelsMany', 'findByIds'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const [p1, p2] = [await s.pixel(mine), await s.pixel(mine)];
        const ids = await seed(s, mine, [{ pixelIds: [p1] }, {}, {}]);
        const [foreign] = await seed(s, theirs, [{ title: 'Theirs' }]);
        const later = NOW + 5000;
        const changed = await s.links.updateMany(
          mine,
          [ids[0]!, ids[1]!, foreign!],
          { title: 'Bulk', disabled: 1 },
          later,
        );
        assert.deepEqual(
          [...changed].sort((a, b) => a - b),
          [ids[0], ids[1]],
        );
        const read = await s.links.findByIds(mine, ids);
        assert.deepEqual(
          read.map((l) => [l.title, l.disabled, l.updatedAt]),
          [
            ['Bulk', 1, later],
            ['Bulk', 1, later],
            [null, 0, NOW],
          ],
        );
        assert.equal((await s.links.findByIds(theirs, [foreign!]))[0]?.title, 'Theirs');
        const pixelled = await s.links.setPixelsMany(mine, [ids[0]!, ids[2]!, foreign!], [p2, p1], later);
        assert.deepEqual(
          [...pixelled].sort((a, b) => a - b),
          [ids[0], ids[2]],
        );
        const after = await s.links.findByIds(mine, ids);
        assert.deepEqual(
          after.map((l) => l.pixelIds),
          [[p1, p2].sort((a, b) => a - b), [], [p1, p2].sort((a, b) => a - b)],
        );
        assert.deepEqual(await s.links.updateMany(mine, [], { title: 'x' }, later), []);
        assert.deepEqual(await s.links.setPixelsMany(mine, [], [p1], later), []);
      },
    );

    it(
      'setTitle fills a missing title only: one the owner set stays',
      ['insertMany', 'setTitle', 'findByIds'],
      async (s) => {
        const mine = await s.account();
        const [untitled, titled] = await seed(s, mine, [{}, { title: 'Mine' }]);
        await s.links.setTitle(untitled!, 'Fetched');
        await s.links.setTitle(titled!, 'Fetched');
        assert.deepEqual(
          (await s.links.findByIds(mine, [untitled!, titled!])).map((l) => l.title),
          ['Fetched', 'Mine'],
        );
      },
    );

    it('list pages the account’s links by id (desc or asc) with their total', ['insertMany', 'list'], async (s) => {
      const [mine, theirs] = [await s.account(), await s.account()];
      const ids = await seed(
        s,
        mine,
        Array.from({ length: 12 }, () => ({})),
      );
      await seed(s, theirs, [{}]);
      const first = await s.links.list(mine, filterOf(), page(1), NOW);
      assert.equal(first.total, 12);
      assert.deepEqual(idsOf(first.items), [...ids].reverse().slice(0, 10));
      assert.equal(first.page, 1);
      assert.equal(first.perPage, 10);
      const second = await s.links.list(mine, filterOf(), page(2), NOW);
      assert.deepEqual(idsOf(second.items), [ids[1], ids[0]]);
      assert.equal(second.total, 12);
      assert.deepEqual(
        idsOf((await s.links.list(mine, filterOf({ sort: 'asc' }), page(1), NOW)).items),
        ids.slice(0, 10),
      );
      const beyond = await s.links.list(mine, filterOf(), page(3), NOW);
      assert.deepEqual(beyond.items, []);
      assert.equal(beyond.total, 12);
    });

    it(
      'list by status: disabled; else expired by date or by a reached click cap; else active',
      ['insertMany', 'list'],
      async (s) => {
        const mine = await s.account();
        const [active, disabled, byDate, byCap, capOpen, zeroCap, disabledExpired] = await seed(s, mine, [
          { endsAt: NOW + 1 },
          { disabled: 1 },
          { endsAt: NOW },
          { expirationClicks: 2 },
          { expirationClicks: 3 },
          { expirationClicks: 0 },
          { disabled: 1, endsAt: NOW - 1 },
        ]);
        await s.setClicks(byCap!, 2);
        await s.setClicks(capOpen!, 2);
        await s.setClicks(zeroCap!, 9);
        const listed = async (status: LinkStatus) =>
          idsOf((await s.links.list(mine, filterOf({ status, sort: 'asc' }), page(1), NOW)).items);
        const counted = async (status: LinkStatus) =>
          (await s.links.list(mine, filterOf({ status }), page(1), NOW)).total;
        assert.deepEqual(await listed(LinkStatus.Active), [active, capOpen, zeroCap]);
        assert.deepEqual(await listed(LinkStatus.Disabled), [disabled, disabledExpired]);
        assert.deepEqual(await listed(LinkStatus.Expired), [byDate, byCap]);
        assert.deepEqual(
          [
            await counted(LinkStatus.All),
            await counted(LinkStatus.Active),
            await counted(LinkStatus.Disabled),
            await counted(LinkStatus.Expired),
          ],
          [7, 3, 2, 2],
        );
      },
    );

    it('list by clicks: max or min, ties newest first', ['insertMany', 'list'], async (s) => {
      const mine = await s.account();
      const [a, b, c, d] = await seed(s, mine, [{}, {}, {}, {}]);
      await s.setClicks(a!, 5);
      await s.setClicks(b!, 1);
      await s.setClicks(c!, 5);
      assert.deepEqual(idsOf((await s.links.list(mine, filterOf({ sort: 'max' }), page(1), NOW)).items), [c, a, b, d]);
      assert.deepEqual(idsOf((await s.links.list(mine, filterOf({ sort: 'min' }), page(1), NOW)).items), [d, b, c, a]);
    });

    it(
      'list search ignores case: three characters or more anywhere in the field, fewer at its start; `any` is any of the three',
      ['insertMany', 'list'],
      async (s) => {
        const mine = await s.account();
        const [shop, workshop, byUrl, byAlias] = await seed(s, mine, [
          { title: 'Shop opening' },
          { title: 'The WORKSHOP' },
          { title: 'Other', url: 'https://example.com/sHoPping' },
          { title: 'Plain', alias: fresh('shopx') },
        ]);
        const found = async (search: string, by: LinkFilter['by']) =>
          idsOf((await s.links.list(mine, filterOf({ search, by, sort: 'asc' }), page(1), NOW)).items);
        assert.deepEqual(await found('SHOP', 'title'), [shop, workshop]);
        assert.deepEqual(await found('sh', 'title'), [shop], 'a short search matches the start only');
        assert.deepEqual(await found('shopping', 'url'), [byUrl]);
        assert.deepEqual(await found('SHOPX', 'alias'), [byAlias]);
        assert.deepEqual(await found('shop', 'any'), [shop, workshop, byUrl, byAlias]);
        assert.deepEqual(await found('100%', 'title'), [], 'like wildcards are plain characters');
        assert.equal((await s.links.list(mine, filterOf({ search: 'shop', by: 'title' }), page(1), NOW)).total, 2);
      },
    );

    it('list filters by space, domain and pixel, within the account', ['insertMany', 'list'], async (s) => {
      const [mine, theirs] = [await s.account(), await s.account()];
      const [space, domain, pixel] = [await s.space(mine), await s.domain(mine), await s.pixel(mine)];
      const [inSpace, onDomain, withPixel] = await seed(s, mine, [
        { spaceId: space },
        { domainId: domain },
        { pixelIds: [pixel] },
        {},
      ]);
      const found = async (over: Partial<LinkFilter>, accountId = mine) =>
        idsOf((await s.links.list(accountId, filterOf(over), page(1), NOW)).items);
      assert.deepEqual(await found({ spaceId: space }), [inSpace]);
      assert.deepEqual(await found({ domainId: domain }), [onDomain]);
      assert.deepEqual(await found({ pixelId: pixel }), [withPixel]);
      assert.deepEqual(await found({ spaceId: space }, theirs), []);
      assert.equal((await s.links.list(mine, filterOf({ spaceId: space }), page(1), NOW)).total, 1);
    });

    it(
      'list with countUpTo: a total that reaches the bound is said to be a lower bound',
      ['insertMany', 'list'],
      async (s) => {
        const mine = await s.account();
        await seed(
          s,
          mine,
          Array.from({ length: 5 }, (_, i) => ({ title: `Bounded ${i}` })),
        );
        const filter = filterOf({ search: 'bounded' });
        const bounded = await s.links.list(mine, filter, page(1), NOW, { countUpTo: 3 });
        assert.equal(bounded.totalIsLowerBound, true);
        assert.ok(bounded.total >= 3 && bounded.total <= 5, `total ${bounded.total}`);
        assert.equal(bounded.items.length, 5, 'the page is not cut by the bound');
        const exact = await s.links.list(mine, filter, page(1), NOW, { countUpTo: 10 });
        assert.equal(exact.total, 5);
        assert.ok(!exact.totalIsLowerBound);
      },
    );

    it('first: the first few links in the list’s order, with the filter', ['insertMany', 'first'], async (s) => {
      const mine = await s.account();
      const [a, b, c] = await seed(s, mine, [{}, { disabled: 1 }, {}]);
      await s.setClicks(a!, 3);
      assert.deepEqual(idsOf(await s.links.first(mine, filterOf(), 2, NOW)), [c, b]);
      assert.deepEqual(idsOf(await s.links.first(mine, filterOf({ sort: 'max' }), 1, NOW)), [a]);
      assert.deepEqual(idsOf(await s.links.first(mine, filterOf({ status: LinkStatus.Active, sort: 'asc' }), 5, NOW)), [
        a,
        c,
      ]);
    });

    it(
      'listAfter: the links past an id that pass the filter, by id, up to the limit',
      ['insertMany', 'listAfter'],
      async (s) => {
        const [mine, theirs] = [await s.account(), await s.account()];
        const ids = await seed(s, mine, [{}, { disabled: 1 }, {}, {}, {}]);
        await seed(s, theirs, [{}]);
        assert.deepEqual(idsOf(await s.links.listAfter(mine, filterOf(), 0, 3, NOW)), ids.slice(0, 3));
        assert.deepEqual(idsOf(await s.links.listAfter(mine, filterOf(), ids[2]!, 3, NOW)), ids.slice(3));
        assert.deepEqual(
          idsOf(await s.links.listAfter(mine, filterOf({ status: LinkStatus.Active, sort: 'max' }), 0, 10, NOW)),
          [ids[0], ids[2], ids[3], ids[4]],
        );
      },
    );
  });
}
