// What the links' history and scheduled changes promise (src/core/links/link-history.ts,
// link-schedules.ts), as the history service, the restore and the schedule round rely on them
// (docs/design/history.md): versions numbered from 1 per link in the order appended, read back
// whole newest first with the actor's name, in the link's account only, paged, and each link's
// last state; a schedule leaves pending once (a second settle is refused), due ones by time. Run on the SQL stores of both
// engines (no fake: services write through their unit of work).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LinkHistory, LinkState, NewLinkVersion } from '../../src/core/links/link-history.ts';
import type { LinkSchedules } from '../../src/core/links/link-schedules.ts';

export interface LinkHistorySubject {
  history: LinkHistory;
  schedules: LinkSchedules;
  /** A fresh account named `name`. */
  account: (name: string) => Promise<number>;
  link: (accountId: number) => Promise<number>;
}

const state = (url: string): LinkState => ({
  domainId: null,
  spaceId: null,
  alias: 'a',
  url,
  title: null,
  socialCard: null,
  targetType: 0,
  targets: { country: null, platform: null, language: null, rotation: null },
  rules: null,
  iosUrl: null,
  androidUrl: null,
  trackConversions: 0,
  disabled: 0,
  privacy: 1,
  privacyPasswordHash: null,
  passwordHash: '$hash',
  expirationUrl: null,
  expirationClicks: null,
  endsAt: null,
  pixelIds: [3],
});

const version = (accountId: number, linkId: number, at: number, url: string): NewLinkVersion => ({
  linkId,
  accountId,
  at,
  actor: { userId: accountId, keyId: null, via: 'api' },
  restoredFrom: null,
  changes: { url: [null, url], password: 'changed' },
  state: state(url),
});

export function describeLinkHistoryContract(name: string, make: () => LinkHistorySubject): void {
  describe(`${name}: the LinkHistory and LinkSchedules contract`, () => {
    test('versions numbered per link from 1, newest first, whole, with the name; another account sees none', async () => {
      const s = make();
      const ada = await s.account('Ada');
      const [one, two] = [await s.link(ada), await s.link(ada)];
      await s.history.append([version(ada, one, 10, 'https://a/1'), version(ada, two, 10, 'https://b/1')]);
      await s.history.append([version(ada, one, 20, 'https://a/2'), version(ada, one, 30, 'https://a/3')]);
      await s.history.append([
        {
          ...version(ada, one, 40, 'https://a/1'),
          restoredFrom: 1,
          actor: { userId: ada, keyId: null, via: 'restore' },
        },
      ]);
      const page = await s.history.list(ada, one, { page: 1, perPage: 10 });
      assert.equal(page.total, 4);
      assert.deepEqual(
        page.items.map((v) => [v.version, v.at, v.state.url]),
        [
          [4, 40, 'https://a/1'],
          [3, 30, 'https://a/3'],
          [2, 20, 'https://a/2'],
          [1, 10, 'https://a/1'],
        ],
      );
      const [restored] = page.items;
      assert.equal(restored!.restoredFrom, 1);
      assert.equal(restored!.actor.via, 'restore');
      assert.equal(restored!.actorName, 'Ada');
      assert.deepEqual(restored!.changes, { url: [null, 'https://a/1'], password: 'changed' });
      assert.deepEqual(restored!.state, state('https://a/1'));
      assert.deepEqual(
        (await s.history.list(ada, two, { page: 1, perPage: 10 })).items.map((v) => v.version),
        [1],
      );
      assert.deepEqual(
        (await s.history.list(ada, one, { page: 2, perPage: 3 })).items.map((v) => v.version),
        [1],
      );
      assert.equal((await s.history.find(ada, one, 2))?.state.url, 'https://a/2');
      assert.equal(await s.history.find(ada, one, 9), null);

      const bob = await s.account('Bob');
      assert.equal((await s.history.list(bob, one, { page: 1, perPage: 10 })).total, 0);
      assert.equal(await s.history.find(bob, one, 1), null);

      const latest = await s.history.latestStates([one, two, 999_999_999]);
      assert.deepEqual([...latest.keys()].sort(), [one, two].sort(), 'a link without versions is absent');
      assert.equal(latest.get(one)!.url, 'https://a/1', "the last version's state");
      assert.equal(latest.get(two)!.url, 'https://b/1');
    });

    test('a schedule leaves pending once; due by time; in its account only', async () => {
      const s = make();
      const ada = await s.account('Ada');
      const link = await s.link(ada);
      const base = {
        linkId: link,
        accountId: ada,
        actor: { userId: ada, keyId: 7, via: 'api' as const },
        timeZone: 'UTC',
        createdAt: 1,
      };
      const early = await s.schedules.insert({ ...base, at: 1_000, changes: { url: 'https://x/early' } });
      const late = await s.schedules.insert({ ...base, at: 9_000_000_000_000, changes: { disabled: 1 } });
      assert.equal(early.status, 'pending');
      assert.deepEqual(early.changes, { url: 'https://x/early' });
      const due = (await s.schedules.due(2_000, 1000)).map((d) => d.id);
      assert.ok(due.includes(early.id) && !due.includes(late.id));

      assert.equal(await s.schedules.settle(early.id, 'applied', 2_000), true);
      assert.equal(await s.schedules.settle(early.id, 'failed', 2_001, 'too late'), false, 'settled once');
      assert.ok(!(await s.schedules.due(2_000, 1000)).some((d) => d.id === early.id));
      assert.equal(await s.schedules.settle(late.id, 'failed', 3_000, 'alias: taken'), true);
      const listed = await s.schedules.list(ada, link, { page: 1, perPage: 10 });
      assert.deepEqual(
        listed.items.map((x) => [x.id, x.status, x.reason]),
        [
          [late.id, 'failed', 'alias: taken'],
          [early.id, 'applied', null],
        ],
      );
      assert.equal(listed.items[1]!.actor.keyId, 7);
      const bob = await s.account('Bob');
      assert.equal(await s.schedules.find(bob, link, early.id), null);
      assert.equal((await s.schedules.list(bob, link, { page: 1, perPage: 10 })).total, 0);
    });
  });
}
