import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExpirySweep } from './expiry-sweep.ts';
import type { ClaimedExpiry } from './ports.ts';
import type { WebhookEvent } from './webhook.ts';
import { LinkViews } from '../links/link-views.ts';
import {
  MemoryDomainStore,
  MemoryLinkStore,
  MemoryPixelStore,
  MemorySpaceStore,
} from '../../../test/support/fakes/link-fakes.ts';

test('a round tells each claimed link once to its own account, only where a link.expired webhook listens', async () => {
  const links = new MemoryLinkStore();
  const a = links.add(1, { alias: 'a' });
  const b = links.add(1, { alias: 'b' });
  const c = links.add(2, { alias: 'c' });
  let due: ClaimedExpiry[] = [a, b, c].map((l) => ({ id: l.id, accountId: l.accountId }));
  const told: Array<{ accountId: number; event: WebhookEvent; ids: Array<number | null> }> = [];
  const sweep = new ExpirySweep({
    // As the database's claim: what is taken is marked told, so the next round finds nothing.
    claims: { claim: async (_now, limit) => due.splice(0, limit) },
    links,
    views: new LinkViews({
      spaces: new MemorySpaceStore(),
      domains: new MemoryDomainStore(),
      pixels: new MemoryPixelStore(),
    }),
    events: {
      listens: async (accountId) => accountId === 1,
      emitMany: async (accountId, event, items) =>
        void told.push({ accountId, event, ids: items.map((i) => i.linkId) }),
    },
    present: (view) => ({ id: view.link.id, alias: view.link.alias }),
    clock: { now: () => 0 },
  });
  assert.equal(await sweep.round(2), true, 'a full round: more may be due');
  assert.equal(await sweep.round(2), false);
  assert.deepEqual(told, [{ accountId: 1, event: 'link.expired', ids: [a.id, b.id] }], 'account 2 has no such webhook');
  due = [];
  assert.equal(await sweep.round(2), false);
  assert.equal(told.length, 1);
});

test('a round, its claim and its deliveries, is one unit of work: a failed enqueue fails the round', async () => {
  const links = new MemoryLinkStore();
  const a = links.add(1, { alias: 'a' });
  const trail: string[] = [];
  const ports = {
    claims: {
      claim: async () => {
        trail.push('claim');
        return [{ id: a.id, accountId: 1 }];
      },
    },
    links,
    views: new LinkViews({
      spaces: new MemorySpaceStore(),
      domains: new MemoryDomainStore(),
      pixels: new MemoryPixelStore(),
    }),
    events: {
      listens: async () => true,
      emitMany: async () => {
        trail.push('enqueue');
        throw new Error('the outbox is failing');
      },
    },
  };
  const sweep = new ExpirySweep({
    ...ports,
    present: (view) => ({ id: view.link.id }),
    clock: { now: () => 0 },
    unitOfWork: async (work) => {
      trail.push('begin');
      try {
        return await work(ports);
      } catch (error) {
        trail.push('rollback');
        throw error;
      }
    },
  });
  await assert.rejects(sweep.round(10), /the outbox is failing/);
  assert.deepEqual(trail, ['begin', 'claim', 'enqueue', 'rollback']);
});
