import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkspaceStatsService, type WorkspaceStatsStore } from './workspace-stats-service.ts';
import { LinkRanking } from './link-ranking.ts';
import type { Actor } from '../workspaces/workspace.ts';

const actor: Actor = { userId: 1, keyId: null, scopes: null, home: { workspaceId: 7, role: 'owner' } };
const aliases = new Map([
  [1, 'alpha'],
  [2, 'beta'],
  [3, 'gamma'],
  [5, 'delta'],
]);
// Link 4 was deleted after its settled sums were kept: it has no alias any more.
const settled = new Map([
  [1, 5],
  [2, 3],
  [4, 9],
]);
const recent = new Map([
  [3, 4],
  [5, 1],
  [2, 2],
]);
const sorted = [...settled].map(([linkId, clicks]) => ({ linkId, clicks })).sort((a, b) => b.clicks - a.clicks);

function service(read: string[]) {
  const store: WorkspaceStatsStore = {
    valueCounts: async (_w, _r, names) =>
      new Map(
        names.map((n) => [
          n,
          n === 'qr'
            ? [
                { value: 'qr', count: 2 },
                { value: null, count: 24 },
              ]
            : [
                { value: 'x', count: 3 },
                { value: null, count: 5 },
              ],
        ]),
      ),
    linkRanking: async () => new LinkRanking(sorted, settled, recent),
    linkAliases: async (_w, ids) => {
      read.push(...ids.map(String));
      return new Map(ids.filter((id) => aliases.has(id)).map((id) => [id, aliases.get(id)!] as const));
    },
    aliasesMatching: async (_w, needle) => new Map([...aliases].filter(([, a]) => a.includes(needle))),
  };
  return new WorkspaceStatsService({
    store,
    stats: { accountPerDay: async () => [{ value: '2026-12-07', count: 24 }] },
    workspaces: { require: async () => undefined as never },
    find: async (id) => ({ id, name: 'w', personal: true, requireTwoFactor: false, timezone: 'UTC', createdAt: 0 }),
    clock: { now: () => Date.parse('2026-12-07T12:00:00Z') },
  });
}

const pairs = (items: ReadonlyArray<{ value: string | null; count: number }>) => items.map((i) => [i.value, i.count]);

test("links: a page by clicks then alias, a deleted link skipped; search and CSV over every link's alias", async () => {
  const read: string[] = [];
  const s = service(read);
  const page = await s.query(actor, 7, { name: 'links', page: { page: 1, perPage: 2 } });
  assert.deepEqual(pairs(page.items), [
    ['alpha', 5],
    ['beta', 5],
  ]);
  assert.deepEqual(
    page.items.map((i) => i.linkId),
    [1, 2],
  );
  assert.equal(page.clicks, 24);
  const second = await s.query(actor, 7, { name: 'links', page: { page: 2, perPage: 2 } });
  assert.deepEqual(pairs(second.items), [
    ['gamma', 4],
    ['delta', 1],
  ]);
  const fewest = await s.query(actor, 7, { name: 'links', sort: 'min', page: { page: 1, perPage: 2 } });
  assert.deepEqual(pairs(fewest.items), [
    ['delta', 1],
    ['gamma', 4],
  ]);
  const searched = await s.query(actor, 7, { name: 'links', search: 'TA', page: { page: 1, perPage: 10 } });
  assert.deepEqual(pairs(searched.items), [
    ['beta', 5],
    ['delta', 1],
  ]);
  assert.equal(searched.total, 2);
  const csv = await s.query(actor, 7, { name: 'links', page: null });
  assert.deepEqual(pairs(csv.items), [
    ['alpha', 5],
    ['beta', 5],
    ['gamma', 4],
    ['delta', 1],
  ]);
});

test('the overview: every value table from one read, qr as scans against the rest, the top links by alias only', async () => {
  const read: string[] = [];
  const { days, tables } = await service(read).overview(actor, 7, {}, ['links', 'tags', 'qr'], 2);
  assert.equal(days.clicks, 24);
  assert.deepEqual(pairs(tables.get('links')!), [
    ['alpha', 5],
    ['beta', 5],
  ]);
  assert.deepEqual(pairs(tables.get('tags')!), [
    [null, 5],
    ['x', 3],
  ]);
  assert.deepEqual(pairs(tables.get('qr')!), [
    ['link', 22],
    ['qr', 2],
  ]);
  assert.ok(read.length <= 4, `aliases read: ${read.join(', ')}`);
});
