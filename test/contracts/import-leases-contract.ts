// What every ImportLeases promises (src/adapters/import/import-leases.ts), as the import slots
// rely on it (docs/design/imports.md): run against the SQL store on both engines, for a
// workspace's lease and a person's alike.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImportLeases, LeaseSubject } from '../../src/adapters/import/import-leases.ts';

export interface ImportLeasesFixture {
  leases: ImportLeases;
  /** The id of a fresh workspace that is also a person (a personal workspace shares its owner's id). */
  owner: () => Promise<number>;
}

const KINDS: LeaseSubject['kind'][] = ['workspace', 'person'];

export function describeImportLeasesContract(name: string, make: () => ImportLeasesFixture): void {
  describe(`${name}: the ImportLeases contract`, () => {
    for (const kind of KINDS) {
      test(`a ${kind}'s lease: taken once while it runs, by anyone once past its time`, async () => {
        const { leases, owner } = make();
        const subject = { kind, id: await owner() };
        assert.equal(await leases.take(subject, 'a', 1000, 2000), true);
        assert.equal(await leases.take(subject, 'b', 1500, 2500), false, 'a live lease is left alone');
        assert.equal(await leases.take(subject, 'b', 2000, 3000), false, 'still live at its last instant');
        assert.equal(await leases.take(subject, 'b', 2001, 3001), true, 'past its time it is taken over');
        assert.equal(await leases.extend(subject, 'a', 9000), false, 'the old holder has lost it');
        assert.equal(await leases.take(subject, 'a', 2500, 4000), false, 'the new holder keeps it');
      });

      test(`a ${kind}'s lease: extended and released by its holder only`, async () => {
        const { leases, owner } = make();
        const subject = { kind, id: await owner() };
        assert.equal(await leases.extend(subject, 'a', 2000), false, 'no lease to extend');
        await leases.take(subject, 'a', 1000, 2000);
        assert.equal(await leases.extend(subject, 'a', 5000), true);
        assert.equal(await leases.take(subject, 'b', 4000, 6000), false, 'extended past 4000');
        await leases.release(subject, 'b');
        assert.equal(await leases.take(subject, 'b', 4000, 6000), false, 'another holder cannot release it');
        await leases.release(subject, 'a');
        assert.equal(await leases.extend(subject, 'a', 7000), false, 'gone once released');
        assert.equal(await leases.take(subject, 'b', 4000, 6000), true, 'free once released');
      });
    }

    test("a workspace's lease and its owner's are apart", async () => {
      const { leases, owner } = make();
      const id = await owner();
      assert.equal(await leases.take({ kind: 'workspace', id }, 'a', 1000, 2000), true);
      assert.equal(await leases.take({ kind: 'person', id }, 'b', 1000, 2000), true, 'the same id, another table');
      await leases.release({ kind: 'workspace', id }, 'a');
      assert.equal(await leases.extend({ kind: 'person', id }, 'b', 3000), true, 'the person keeps theirs');
    });
  });
}
