import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { SsoIdentity, SsoIdentityStore } from './sso-identity-store.ts';
import { SsoLinks } from './sso-links.ts';
import type { SsoClaims } from './sso-sign-in.ts';

/** Identities in a map; `passwords` holds the people who have one. */
function setup(passwords: number[], allowedDomains: string[] = []) {
  const links = new Map<string, number>();
  const key = (i: SsoIdentity) => `${i.issuer} ${i.subject}`;
  const identities: SsoIdentityStore = {
    findUser: async (i) => links.get(key(i)) ?? null,
    link: async (userId, i) => void (links.has(key(i)) || links.set(key(i), userId)),
    ofUser: async (userId) =>
      [...links]
        .filter(([, id]) => id === userId)
        .map(([k]) => ({ issuer: k.split(' ')[0]!, subject: k.split(' ')[1]!, createdAt: 0 })),
    unlink: async (userId, i) => {
      if (links.get(key(i)) !== userId) return 'absent';
      if (!passwords.includes(userId) && [...links.values()].filter((id) => id === userId).length === 1) return 'last';
      links.delete(key(i));
      return 'unlinked';
    },
    createUser: async () => assert.fail('linking makes no account'),
  };
  const sso = new SsoLinks({
    identities,
    allowedDomains,
    clock: { now: () => 1000 },
  });
  return { sso, links };
}

const claims = (subject: string, email: string | null = 'sam@example.com'): SsoClaims => ({
  issuer: 'https://id.test',
  subject,
  email,
  emailVerified: false,
  name: null,
});

test('an identity links to the person who proved it, once; another person cannot take it', async () => {
  const { sso } = setup([1, 2]);
  assert.equal(await sso.link(1, claims('a')), 'linked');
  assert.equal(await sso.link(1, claims('a')), 'linked', 'again is no error');
  assert.equal(await sso.link(2, claims('a')), 'taken');
  assert.deepEqual(
    (await sso.of(1)).map((i) => i.subject),
    ['a'],
  );
});

test('an email outside the allowed domains is not linked (it could not sign in anyway)', async () => {
  const { sso } = setup([1], ['example.org']);
  assert.equal(await sso.link(1, claims('a', 'sam@example.com')), 'domain');
  assert.equal(await sso.link(1, claims('b', null)), 'domain');
  assert.equal(await sso.link(1, claims('c', 'Sam@Example.ORG')), 'linked');
});

test('unlinking keeps a way in: a password, or another identity; never another person’s', async () => {
  const { sso } = setup([1]);
  await sso.link(1, claims('a'));
  await sso.unlink(1, { issuer: 'https://id.test', subject: 'a' });
  assert.deepEqual(await sso.of(1), []);

  await sso.link(2, claims('b'));
  await assert.rejects(
    sso.unlink(2, { issuer: 'https://id.test', subject: 'b' }),
    (e) => e instanceof ValidationError && 'sso' in e.fields,
  );
  await sso.link(2, claims('c'));
  await sso.unlink(2, { issuer: 'https://id.test', subject: 'b' });
  assert.deepEqual(
    (await sso.of(2)).map((i) => i.subject),
    ['c'],
  );
  await assert.rejects(sso.unlink(1, { issuer: 'https://id.test', subject: 'c' }), NotFoundError);
});
