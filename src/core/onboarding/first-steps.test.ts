import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FirstStepsService, stepsDone, type FirstStepsStore, type WorkspaceFacts } from './first-steps.ts';

const NONE: WorkspaceFacts = { hasLinks: false, hasClicks: false, hasDomains: false, hasKeys: false, hasOthers: false };

/** The store's port, in memory: facts per workspace, dismissals per (workspace, person). */
function fakeStore(facts: Record<number, WorkspaceFacts>): FirstStepsStore & { dismissals: Map<string, number> } {
  const dismissals = new Map<string, number>();
  return {
    dismissals,
    facts: async (workspaceId) => facts[workspaceId] ?? NONE,
    dismissed: async (workspaceId, userId) => dismissals.has(`${workspaceId}:${userId}`),
    dismiss: async (workspaceId, userId, at) => void dismissals.set(`${workspaceId}:${userId}`, at),
  };
}

const clock = { now: () => 1_700_000_000_000 };

test('each step is ticked by its own fact; a click ticks both the visit and the live step', () => {
  assert.deepEqual(stepsDone(NONE), {
    shorten: false,
    visit: false,
    live: false,
    domain: false,
    key: false,
    invite: false,
  });
  assert.deepEqual(stepsDone({ ...NONE, hasLinks: true, hasClicks: true, hasKeys: true }), {
    shorten: true,
    visit: true,
    live: true,
    domain: false,
    key: true,
    invite: false,
  });
  assert.equal(stepsDone({ ...NONE, hasDomains: true }).domain, true);
  assert.equal(stepsDone({ ...NONE, hasOthers: true }).invite, true);
});

test('a new workspace gets the checklist; one with every step done gets none', async () => {
  const all = { hasLinks: true, hasClicks: true, hasDomains: true, hasKeys: true, hasOthers: true };
  const service = new FirstStepsService(fakeStore({ 1: NONE, 2: all, 3: { ...all, hasOthers: false } }), clock);
  assert.equal((await service.checklist(1, 10))?.done.shorten, false);
  assert.equal(await service.checklist(2, 10), null);
  assert.deepEqual((await service.checklist(3, 10))?.done.invite, false);
  // Only the steps the person may take count: without "invite", workspace 3 is done.
  const mine = ['shorten', 'visit', 'live', 'domain', 'key'] as const;
  assert.equal(await service.checklist(3, 10, mine), null);
  assert.deepEqual((await service.checklist(1, 10, ['key', 'shorten']))?.steps, ['shorten', 'key']);
  assert.equal(await service.checklist(1, 10, []), null);
});

test('dismissed for that person in that workspace only, at the clock’s time', async () => {
  const store = fakeStore({});
  const service = new FirstStepsService(store, clock);
  await service.dismiss(1, 10);
  assert.equal(await service.checklist(1, 10), null);
  assert.notEqual(await service.checklist(1, 11), null, 'another person still sees it');
  assert.notEqual(await service.checklist(2, 10), null, 'so does the same person in another workspace');
  assert.equal(store.dismissals.get('1:10'), clock.now());
  await service.dismiss(1, 10);
  assert.equal(store.dismissals.size, 1);
});
