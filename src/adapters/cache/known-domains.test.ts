import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KnownDomains } from './known-domains.ts';

function source(names: string[], certifiable: string[]) {
  return {
    reads: 0,
    names,
    certifiable,
    async domainNames() {
      this.reads++;
      return [...this.names];
    },
    async certifiableNames() {
      return [...this.certifiable];
    },
  };
}

test('the names a certificate may be issued for: unknown before the load and while a change loads', async () => {
  const inner = source(['a.example', 'b.example'], ['a.example']);
  const known = new KnownDomains(inner, { refreshMs: 60_000 });
  assert.equal(known.mayCertify('a.example'), undefined);
  await known.ready();
  assert.equal(known.mayCertify('a.example'), true);
  assert.equal(known.mayCertify('b.example'), false, 'verified, but not certifiable');
  assert.equal(known.mayCertify('c.example'), false);
  inner.certifiable = [];
  known.invalidate();
  // The change may take the name away: not answered from the list in hand.
  assert.equal(known.mayCertify('a.example'), undefined);
  await known.ready();
  assert.equal(known.mayCertify('a.example'), false);
  assert.equal(known.has('a.example'), true, 'it still serves');
});

test('a source without certifiable names certifies none', async () => {
  const known = new KnownDomains({ domainNames: async () => ['a.example'] }, { refreshMs: 60_000 });
  await known.ready();
  assert.equal(known.mayCertify('a.example'), false);
});
