import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link } from './link.ts';
import { aLink } from '../../../test/support/links.ts';
import { staticEntries, whyNotExported, whyNotStatic, type HostedStaticLink } from './static-links.ts';

const plain: Link = aLink();

test('a plain link: enabled, and one redirect for every visitor (private statistics do not matter)', () => {
  assert.equal(whyNotStatic(plain), null);
  assert.equal(whyNotStatic({ ...plain, privacy: 2, privacyPasswordHash: 'h', title: 'T', clicks: 9 }), null);
  assert.equal(whyNotStatic({ ...plain, targets: { ...plain.targets, country: [] } }), null, 'an empty list');
});

test('each field that makes the redirect decide per visit, count or stop names its reason', () => {
  const cases: Array<[Partial<Link>, string]> = [
    [{ disabled: 1 }, 'disabled'],
    [{ blockedAt: 5 }, 'disabled'],
    [{ passwordHash: 'h' }, 'password'],
    [{ rules: [] }, 'rules'],
    [{ targetType: 1 }, 'targeting'],
    [{ targets: { ...plain.targets, rotation: [{ value: 'https://a.example/' }] } }, 'targeting'],
    [{ pixelIds: [3] }, 'pixels'],
    [{ expirationClicks: 10 }, 'click cap'],
    [{ endsAt: 1000 }, 'expiry'],
    [{ trackConversions: 1 }, 'conversion tracking'],
    [{ iosUrl: 'app://x' }, 'app links'],
    [{ androidUrl: 'app://x' }, 'app links'],
  ];
  for (const [fields, reason] of cases) assert.equal(whyNotStatic({ ...plain, ...fields }), reason, reason);
});

test('a suspended workspace and a pending domain come before the link', () => {
  const hosted = { link: plain, domain: 'go.example', domainVerified: true, suspended: false };
  assert.equal(whyNotExported(hosted), null);
  assert.equal(whyNotExported({ ...hosted, suspended: true }), 'suspended');
  assert.equal(whyNotExported({ ...hosted, domainVerified: false }), 'pending domain');
});

test('the entries are read a page at a time, after the last id of each page', async () => {
  const links = Array.from({ length: 5 }, (_, i): Link => ({
    ...plain,
    id: i + 1,
    alias: `a${i + 1}`,
    disabled: i === 2 ? 1 : 0,
  }));
  const asked: Array<[number, number]> = [];
  const source = {
    async linksAfter(after: number, limit: number): Promise<HostedStaticLink[]> {
      asked.push([after, limit]);
      return links
        .filter((l) => l.id > after)
        .slice(0, limit)
        .map((link) => ({ link, domain: null, domainVerified: true, suspended: false }));
    },
  };
  const entries = [];
  for await (const entry of staticEntries(source, 2)) entries.push(entry);
  assert.deepEqual(asked, [
    [0, 2],
    [2, 2],
    [4, 2],
  ]);
  assert.deepEqual(
    entries.map((e) => (e.kind === 'link' ? e.alias : `${e.alias}: ${e.reason}`)),
    ['a1', 'a2', 'a3: disabled', 'a4', 'a5'],
  );
});
