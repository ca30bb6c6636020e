import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../shared/errors.ts';
import { UrlPolicy } from '../links/url-policy.ts';
import type { Domain } from './domain.ts';
import { NAME_TAKEN, type DomainClaim, type DomainFields, type DomainStore } from './domain-store.ts';
import { DomainsService } from './domains-service.ts';
import { NameClaims } from './name-claims.ts';
import type { DomainOwnershipCheck, OwnershipResult } from './ownership-check.ts';
import { MemoryReservedNames } from '../../../test/support/fakes/reserved-names-fake.ts';
import type { DomainVerification } from './verification.ts';
import { TEST_ACTOR } from '../../../test/support/audit-actor.ts';

/** The store's rules in memory: one verified domain per name, one claim per account and name. */
class MemoryDomains implements Partial<DomainStore> {
  rows: Domain[] = [];
  private violates(d: Domain) {
    return this.rows.some(
      (o) =>
        o.id !== d.id &&
        o.name === d.name &&
        (o.accountId === d.accountId || (o.verifiedAt !== null && d.verifiedAt !== null)),
    );
  }
  async insert(accountId: number, f: DomainFields & DomainClaim, now: number) {
    const d: Domain = { id: this.rows.length + 1, accountId, ...f, createdAt: now, updatedAt: now };
    if (this.violates(d)) return NAME_TAKEN;
    this.rows.push(d);
    return d;
  }
  async update(accountId: number, id: number, f: Partial<DomainFields & DomainClaim>, now: number) {
    const i = this.rows.findIndex((d) => d.id === id && d.accountId === accountId);
    if (i < 0) return null;
    const d = { ...this.rows[i]!, ...f, updatedAt: now };
    if (this.violates(d)) return NAME_TAKEN;
    return (this.rows[i] = d);
  }
  async findById(accountId: number, id: number) {
    return this.rows.find((d) => d.id === id && d.accountId === accountId) ?? null;
  }
  async nameVerified(name: string, exceptId?: number) {
    return this.rows.some((d) => d.name === name && d.verifiedAt !== null && d.id !== exceptId);
  }
  async nameHeldBy(accountId: number, name: string, exceptId?: number) {
    return this.rows.some((d) => d.name === name && d.accountId === accountId && d.id !== exceptId);
  }
}

/** A check that finds what the test says, and counts its calls. */
function fakeCheck(label: string, answer: (t: DomainVerification) => OwnershipResult) {
  const calls: string[] = [];
  const check: DomainOwnershipCheck = {
    describe: (t) => `${label} of ${t.name}`,
    check: async (t) => {
      calls.push(t.name);
      return answer(t);
    },
  };
  return { check, calls };
}

function service(checks: DomainOwnershipCheck[], required = true) {
  const store = new MemoryDomains();
  const s = new DomainsService({
    store: store as unknown as DomainStore,
    clock: { now: () => 1000 },
    urls: new UrlPolicy(),
    claims: new NameClaims(store as unknown as DomainStore, new MemoryReservedNames(['kept.example.com']), [
      'short.test',
    ]),
    verification: { required, checks },
  });
  return { s, store };
}

const invalid = (fields: Record<string, unknown>) => (e: unknown) => {
  assert.ok(e instanceof ValidationError);
  for (const [field, match] of Object.entries(fields)) assert.match(String(e.fields[field]), match as RegExp);
  return true;
};

test('either check proves control; when neither does, each says what it missed', async () => {
  const dns = fakeCheck('TXT', () => ({ found: false, reason: 'no TXT record' }));
  const file = fakeCheck('file', (t) => (t.token.length > 0 ? { found: true } : { found: false, reason: 'x' }));
  const { s } = service([dns.check, file.check]);
  const d = await s.create(1, { name: 'go.example.com' }, TEST_ACTOR);
  assert.equal(d.verifiedAt, null);
  assert.equal((await s.verify(1, d.id, TEST_ACTOR)).verifiedAt, 1000);
  assert.deepEqual([dns.calls, file.calls], [['go.example.com'], ['go.example.com']]);

  const never = fakeCheck('file', () => ({ found: false, reason: 'HTTP 404' }));
  const other = service([dns.check, never.check]);
  const e = await other.s.create(1, { name: 'go.example.com' }, TEST_ACTOR);
  await assert.rejects(other.s.verify(1, e.id, TEST_ACTOR), (err: unknown) => {
    assert.ok(err instanceof ValidationError);
    assert.deepEqual(err.fields, {
      verification: [
        'Did not find TXT of go.example.com: no TXT record.',
        'Did not find file of go.example.com: HTTP 404.',
      ],
    });
    return true;
  });
  assert.equal(other.store.rows[0]!.verifiedAt, null);
});

test('no check runs for a name that cannot be verified; with verification off, none at all', async () => {
  const found = fakeCheck('TXT', () => ({ found: true }));
  const { s, store } = service([found.check]);
  const [a, b] = [
    await s.create(1, { name: 'x.example.com' }, TEST_ACTOR),
    await s.create(2, { name: 'x.example.com' }, TEST_ACTOR),
  ];
  await s.verify(2, b.id, TEST_ACTOR);
  await assert.rejects(s.verify(1, a.id, TEST_ACTOR), invalid({ name: /already been taken/ }));
  store.rows.push({ ...a, id: 9, accountId: 3, name: 'kept.example.com', verifiedAt: null });
  await assert.rejects(s.verify(3, 9, TEST_ACTOR), invalid({ name: /reserved/ }));
  assert.deepEqual(found.calls, ['x.example.com']);

  const off = fakeCheck('TXT', () => ({ found: false, reason: 'never asked' }));
  const trusted = service([off.check], false);
  assert.equal((await trusted.s.create(1, { name: 'y.example.com' }, TEST_ACTOR)).verifiedAt, 1000);
  await assert.rejects(
    trusted.s.create(2, { name: 'y.example.com' }, TEST_ACTOR),
    invalid({ name: /already been taken/ }),
  );
  assert.deepEqual(off.calls, []);
});

test('a rename starts a new claim; a resent name or other fields keep it', async () => {
  const { s } = service([fakeCheck('TXT', () => ({ found: true })).check]);
  const d = await s.create(1, { name: 'old.example.com' }, TEST_ACTOR);
  const verified = await s.verify(1, d.id, TEST_ACTOR);
  const same = await s.update(1, d.id, { name: 'OLD.example.com', index_page: 'https://example.com/' }, TEST_ACTOR);
  assert.deepEqual([same.verifiedAt, same.verificationToken], [verified.verifiedAt, verified.verificationToken]);
  const renamed = await s.update(1, d.id, { name: 'new.example.com' }, TEST_ACTOR);
  assert.equal(renamed.verifiedAt, null);
  assert.notEqual(renamed.verificationToken, verified.verificationToken);
  await assert.rejects(s.create(1, { name: 'short.test' }, TEST_ACTOR), invalid({ name: /already been taken/ }));
  await assert.rejects(s.create(1, { name: 'kept.example.com' }, TEST_ACTOR), invalid({ name: /reserved/ }));
});
