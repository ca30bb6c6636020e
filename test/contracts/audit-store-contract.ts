// What the audit log's ports promise (src/core/audit/audit-store.ts), as the audit pages, the API
// and the CSV export rely on them (docs/design/teams.md): what AuditLog records AuditStore reads back
// whole, newest first, in its workspace only, filtered, paged and in keyset chunks, with its
// actor's and key's names as they are now; prune removes by age. Run against the SQL stores on
// both engines (they have no fake: services write entries through their unit of work).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditEntry, NewAuditEntry } from '../../src/core/audit/audit-entry.ts';
import type { AuditLog, AuditStore } from '../../src/core/audit/audit-store.ts';

export interface AuditStoreSubject {
  log: AuditLog;
  store: AuditStore;
  /** A fresh workspace and its owner (one id: docs/design/teams.md), named `name`. */
  workspace: (name: string) => Promise<number>;
  /** A key of the workspace's owner, named `name`. */
  key: (workspaceId: number, name: string) => Promise<number>;
  rename: (userId: number, name: string) => Promise<void>;
}

const entry = (workspaceId: number, at: number, over: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
  workspaceId,
  actor: { userId: workspaceId, keyId: null, via: 'web' },
  action: 'link.created',
  target: { type: 'link', id: 1 },
  changes: {},
  at,
  ...over,
});

const page = (n: number, perPage = 10) => ({ page: n, perPage });
const actions = (entries: readonly AuditEntry[]) => entries.map((e) => `${e.action}@${e.at}`);

export function describeAuditStoreContract(name: string, make: () => AuditStoreSubject): void {
  describe(`${name}: the AuditLog and AuditStore contract`, () => {
    test('an entry reads back whole, with its actor’s and key’s names as they are now', async () => {
      const s = make();
      const ws = await s.workspace('Ada');
      const key = await s.key(ws, 'deploy key');
      const changes = {
        url: ['https://a.example/', 'https://b.example/'] as [unknown, unknown],
        password: 'changed' as const,
        tags: [[], ['x', 'y']] as [unknown, unknown],
      };
      await s.log.record([
        entry(ws, 5000, {
          actor: { userId: ws, keyId: key, via: 'api' },
          action: 'link.updated',
          target: { type: 'link', id: 42 },
          changes,
        }),
      ]);
      const [read] = (await s.store.list(ws, {}, page(1))).items;
      assert.ok(read && Number.isSafeInteger(read.id));
      assert.deepEqual(read, {
        id: read.id,
        workspaceId: ws,
        at: 5000,
        actor: { userId: ws, keyId: key, via: 'api' },
        actorName: 'Ada',
        keyName: 'deploy key',
        action: 'link.updated',
        target: { type: 'link', id: 42 },
        changes,
      });
      await s.rename(ws, 'Ada Lovelace');
      assert.equal((await s.store.list(ws, {}, page(1))).items[0]?.actorName, 'Ada Lovelace');
    });

    test('the operator at the CLI has no name; nothing recorded is no entry', async () => {
      const s = make();
      const ws = await s.workspace('Owner');
      await s.log.record([]);
      assert.equal((await s.store.list(ws, {}, page(1))).total, 0);
      await s.log.record([entry(ws, 1000, { actor: { userId: null, keyId: null, via: 'cli' } })]);
      const [read] = (await s.store.list(ws, {}, page(1))).items;
      assert.deepEqual(
        [read?.actorName, read?.keyName, read?.actor],
        [null, null, { userId: null, keyId: null, via: 'cli' }],
      );
    });

    // Entries are written as changes happen: the store orders them by when they were written (their id).
    test('list: its workspace only, the last written first, paged with the total', async () => {
      const s = make();
      const [ws, other] = [await s.workspace('A'), await s.workspace('B')];
      await s.log.record([entry(ws, 1000, { action: 'link.deleted' }), entry(ws, 3000, { action: 'link.created' })]);
      await s.log.record([entry(other, 2000), entry(ws, 3000, { action: 'space.created' })]);
      const all = await s.store.list(ws, {}, page(1));
      assert.equal(all.total, 3);
      assert.deepEqual(actions(all.items), ['space.created@3000', 'link.created@3000', 'link.deleted@1000']);
      const second = await s.store.list(ws, {}, page(2, 2));
      assert.deepEqual(
        [second.total, second.page, second.perPage, actions(second.items)],
        [3, 2, 2, ['link.deleted@1000']],
      );
      assert.deepEqual((await s.store.list(ws, {}, page(3, 2))).items, []);
    });

    test('filters: actor, action (a type alone takes its actions), target, and [from, to)', async () => {
      const s = make();
      const [ws, bob] = [await s.workspace('A'), await s.workspace('Bob')];
      await s.log.record([
        entry(ws, 1000, { action: 'link.created', target: { type: 'link', id: 7 } }),
        entry(ws, 2000, {
          action: 'link.updated',
          target: { type: 'link', id: 8 },
          actor: { userId: bob, keyId: null, via: 'api' },
        }),
        entry(ws, 3000, { action: 'linkage.created', target: { type: 'linkage', id: 7 } }),
        entry(ws, 4000, { action: 'space.deleted', target: { type: 'space', id: 7 } }),
      ]);
      const of = async (filter: Parameters<AuditStore['list']>[1]) =>
        actions((await s.store.list(ws, filter, page(1))).items);
      assert.deepEqual(await of({ actor: bob }), ['link.updated@2000']);
      assert.deepEqual(
        await of({ action: 'link' }),
        ['link.updated@2000', 'link.created@1000'],
        'a type, not a prefix of a name',
      );
      assert.deepEqual(await of({ action: 'link.created' }), ['link.created@1000']);
      assert.deepEqual(await of({ targetType: 'link', targetId: 7 }), ['link.created@1000']);
      assert.deepEqual(await of({ targetId: 7 }), ['space.deleted@4000', 'linkage.created@3000', 'link.created@1000']);
      assert.deepEqual(await of({ from: 2000, to: 4000 }), ['linkage.created@3000', 'link.updated@2000']);
      assert.equal((await s.store.list(ws, { action: 'link', to: 2000 }, page(1))).total, 1);
    });

    test('listBefore: keyset chunks, newest first, filtered, each after the last one’s id', async () => {
      const s = make();
      const ws = await s.workspace('A');
      await s.log.record(
        [1000, 2000, 3000, 4000, 5000].map((at) =>
          entry(ws, at, { action: at === 3000 ? 'space.created' : 'link.created' }),
        ),
      );
      const first = await s.store.listBefore(ws, {}, null, 2);
      assert.deepEqual(actions(first), ['link.created@5000', 'link.created@4000']);
      const next = await s.store.listBefore(ws, {}, first[1]!.id, 2);
      assert.deepEqual(actions(next), ['space.created@3000', 'link.created@2000']);
      assert.deepEqual(actions(await s.store.listBefore(ws, {}, next[1]!.id, 2)), ['link.created@1000']);
      assert.deepEqual(actions(await s.store.listBefore(ws, { action: 'link' }, first[1]!.id, 10)), [
        'link.created@2000',
        'link.created@1000',
      ]);
      assert.deepEqual(await s.store.listBefore(await s.workspace('B'), {}, null, 10), []);
    });

    test('prune removes the entries written before the instant and answers how many went', async () => {
      const s = make();
      const ws = await s.workspace('A');
      // Instants no other test writes at: one database serves every suite.
      await s.log.record([entry(ws, 10), entry(ws, 20), entry(ws, 100)]);
      assert.equal(await s.store.prune(100), 2);
      assert.deepEqual(actions((await s.store.list(ws, {}, page(1))).items), ['link.created@100']);
      assert.equal(await s.store.prune(100), 0);
    });
  });
}
