import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImportLeases, LeaseSubject } from './import-leases.ts';
import { ImportBusyError, ImportSlots } from './import-slots.ts';
import { ImportLeaseLostError, LEASE_MS } from './import-ticket.ts';

/** The lease rows in memory, with the store's rules: a live row of another holder is kept. */
class MemoryLeases implements ImportLeases {
  readonly rows = new Map<string, { holder: string; until: number }>();
  private key = (s: LeaseSubject) => `${s.kind}:${s.id}`;

  async take(subject: LeaseSubject, holder: string, now: number, until: number): Promise<boolean> {
    const row = this.rows.get(this.key(subject));
    if (row && row.until >= now) return false;
    this.rows.set(this.key(subject), { holder, until });
    return true;
  }

  async extend(subject: LeaseSubject, holder: string, until: number): Promise<boolean> {
    const row = this.rows.get(this.key(subject));
    if (row?.holder !== holder) return false;
    row.until = until;
    return true;
  }

  async release(subject: LeaseSubject, holder: string): Promise<void> {
    if (this.rows.get(this.key(subject))?.holder === holder) this.rows.delete(this.key(subject));
  }
}

const busy = (message: RegExp) => (error: unknown) => error instanceof ImportBusyError && message.test(error.message);

test('a claim holds the workspace and the person, not an instance slot; the slot is taken by start', async () => {
  const leases = new MemoryLeases();
  const slots = new ImportSlots(leases, 1, () => 1000);
  const spooling = await slots.claim({ workspaceId: 1, personId: 1 }, 30_000);
  assert.deepEqual([...leases.rows.keys()], ['workspace:1', 'person:1']);
  assert.equal(leases.rows.get('person:1')!.until, 1000 + 30_000 + LEASE_MS, 'held for the upload and a lease beyond');
  // Another person's upload and import go ahead meanwhile: the one slot is free.
  const other = await slots.acquire({ workspaceId: 2, personId: 2 });
  await assert.rejects(spooling.start(), busy(/as many imports as it takes \(1\)/));
  await other.release();
  await spooling.start();
  await spooling.release();
  assert.equal(leases.rows.size, 0);
});

test('refused at once: the workspace busy, the person busy in another workspace, the instance full; a refusal keeps nothing', async () => {
  const leases = new MemoryLeases();
  const slots = new ImportSlots(leases, 1, () => 1000);
  const first = await slots.claim({ workspaceId: 10, personId: 1 }, 0);
  await assert.rejects(slots.claim({ workspaceId: 10, personId: 2 }, 0), busy(/^An import of this account is running/));
  await assert.rejects(
    slots.claim({ workspaceId: 11, personId: 1 }, 0),
    busy(/^This person is running an import already/),
  );
  assert.deepEqual(
    [...leases.rows.keys()],
    ['workspace:10', 'person:1'],
    'the refused claim gave back the workspace it took',
  );
  await first.start();
  await assert.rejects(slots.claim({ workspaceId: 12, personId: 3 }, 0), busy(/as many imports as it takes/));
  await first.release();
  await first.release();
  await (await slots.acquire({ workspaceId: 12, personId: 3 })).release();
});

test('hold: renews when due and stops once the lease is another holder’s; the clock alone stops nothing', async () => {
  const leases = new MemoryLeases();
  let now = 1000;
  const slots = new ImportSlots(leases, 2, () => now);
  const ticket = await slots.acquire({ workspaceId: 1, personId: 1 });
  now += LEASE_MS * 5;
  await ticket.hold();
  assert.equal(leases.rows.get('workspace:1')!.until, now + LEASE_MS, 'late, but its row still its own: renewed');
  const theirs = { holder: 'another', until: now + LEASE_MS };
  leases.rows.set('person:1', theirs);
  await ticket.hold(); // not due yet: no question asked
  now += LEASE_MS;
  await assert.rejects(ticket.hold(), ImportLeaseLostError);
  await assert.rejects(ticket.hold(), ImportLeaseLostError);
  await ticket.release();
  assert.deepEqual([...leases.rows.entries()], [['person:1', theirs]], 'only its own row given back');
});
