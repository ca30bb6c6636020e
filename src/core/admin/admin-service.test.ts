import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Account } from '../accounts/account.ts';
import type { Link } from '../links/link.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { AdminService } from './admin-service.ts';
import type { AdminStore } from './admin-store.ts';

const account = (id: number, email = `a${id}@example.com`): Account => ({
  id,
  name: '',
  email,
  timezone: 'UTC',
  createdAt: 0,
  isAdmin: id === 1,
  suspendedAt: null,
});

function service() {
  const calls: string[] = [];
  const accounts = new Map([1, 2].map((id) => [id, account(id)]));
  const store: AdminStore = {
    totals: async (since) => (calls.push(`totals ${since}`), { accounts: 2, links: 0, clicks: 0, recentClicks: 0 }),
    accounts: async () => ({ items: [], total: 0, page: 1, perPage: 10 }),
    links: async () => ({ items: [], total: 0, page: 1, perPage: 10 }),
    account: async (id) => (accounts.has(id) ? { account: accounts.get(id)!, links: 0 } : null),
    setSuspended: async (id, at) => (calls.push(`suspended ${id} ${at}`), accounts.get(id) ?? null),
    setOperator: async (id, on) => (calls.push(`operator ${id} ${on}`), accounts.get(id) ?? null),
    setLinkDisabled: async (id, disabled) => (calls.push(`link ${id} ${disabled}`), id === 7 ? ({ id } as Link) : null),
    workspaces: async () => ({ items: [], total: 0, page: 1, perPage: 10 }),
    // 2 is a person's own workspace, 5 a team's.
    workspace: async (id) =>
      id === 2 || id === 5
        ? { id, name: 'W', personal: id === 2, email: null, members: 1, links: 0, createdAt: 0, suspendedAt: null }
        : null,
  };
  const svc = new AdminService({
    store,
    accounts: { findByEmail: async (email) => [...accounts.values()].find((a) => a.email === email) ?? null },
    sessions: { deleteAll: async (id, keep) => void calls.push(`sessions ${id} ${keep}`) },
    deleteAccount: async (id) => {
      calls.push(`delete ${id}`);
      if (!accounts.delete(id)) throw new NotFoundError('account');
    },
    invalidation: {
      linkChanged: (id) => void calls.push(`linkChanged ${id}`),
      accountChanged: (id) => void calls.push(`accountChanged ${id}`),
    },
    clock: { now: () => Date.parse('2026-03-10T12:00:00Z') },
  });
  return { svc, calls };
}

test('totals count the last 30 local days, today included', async () => {
  const { svc, calls } = service();
  await svc.totals('Pacific/Kiritimati');
  assert.deepEqual(calls, ['totals 2026-02-10']);
});

test('suspend ends the sessions and drops the cached links; never one’s own account', async () => {
  const { svc, calls } = service();
  await svc.suspend(account(1), 2);
  assert.deepEqual(calls, [`suspended 2 ${Date.parse('2026-03-10T12:00:00Z')}`, 'sessions 2 null', 'accountChanged 2']);
  await assert.rejects(
    svc.suspend(account(1), 1),
    (e) => e instanceof ValidationError && /your own account/.test(e.fields.account![0]!),
  );
  await assert.rejects(svc.suspend(account(1), 9), NotFoundError);
  calls.length = 0;
  await svc.reinstate(2);
  assert.deepEqual(calls, ['suspended 2 null', 'accountChanged 2']);
});

test('delete asks for the email and never deletes oneself', async () => {
  const { svc, calls } = service();
  await assert.rejects(
    svc.deleteAccount(account(1), 1, 'a1@example.com'),
    (e) => e instanceof ValidationError && 'account' in e.fields,
  );
  await assert.rejects(
    svc.deleteAccount(account(1), 2, 'a1@example.com'),
    (e) => e instanceof ValidationError && 'email' in e.fields,
  );
  assert.deepEqual(calls, []);
  await svc.deleteAccount(account(1), 2, ' A2@Example.com ');
  assert.deepEqual(calls, ['delete 2']);
  await assert.rejects(svc.deleteAccount(account(1), 2, 'a2@example.com'), NotFoundError);
});

test('links taken down are invalidated; operators are named by email', async () => {
  const { svc, calls } = service();
  await svc.setLinkDisabled(7, true);
  await assert.rejects(svc.setLinkDisabled(8, true), NotFoundError);
  assert.equal((await svc.setOperator(' A2@example.com', true)).id, 2);
  await assert.rejects(svc.setOperator('nobody@example.com', true), NotFoundError);
  assert.deepEqual(calls, ['link 7 true', 'linkChanged 7', 'link 8 true', 'operator 2 true']);
});

test('a team workspace is suspended and reinstated on its own (its links dropped from the caches); a personal one goes with its account', async () => {
  const { svc, calls } = service();
  await svc.setWorkspaceSuspended(5, true);
  await svc.setWorkspaceSuspended(5, false);
  assert.deepEqual(calls, [
    `suspended 5 ${Date.parse('2026-03-10T12:00:00Z')}`,
    'accountChanged 5',
    'suspended 5 null',
    'accountChanged 5',
  ]);
  await assert.rejects(
    svc.setWorkspaceSuspended(2, true),
    (e) => e instanceof ValidationError && 'workspace' in e.fields,
  );
  await assert.rejects(svc.setWorkspaceSuspended(9, true), NotFoundError);
  assert.equal(calls.length, 4, 'no session of anyone ends');
});
