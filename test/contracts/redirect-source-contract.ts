// What every RedirectLinkSource promises (src/core/redirect/redirect-link.ts), as a visit relies
// on it: a link is found by its host and its alias in any case, on the app's host only the links
// without a domain, on a custom domain only once the domain is verified (a pending claim serves
// nothing); a custom domain's pages likewise. DomainNameSource: the verified names only. Run
// against SqlRedirectLinkSource and the CachedRedirectSource in front of it, on both engines.
// A host that is neither the app's nor a domain's is the cache's own matter (it keys it as the
// app's host before any read: adapters/cache), so no test here asks for one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomainNameSource, RedirectLinkSource } from '../../src/core/redirect/redirect-link.ts';

export interface RedirectSourceSubject {
  appHost: string;
  account: () => Promise<number>;
  link: (
    accountId: number,
    fields: { alias: string; url: string; domainId?: number; disabled?: boolean },
  ) => Promise<number>;
  /** A custom domain of the account with a name no other has, verified or a pending claim. */
  domain: (
    accountId: number,
    fields: { verified: boolean; indexPage?: string; notFoundPage?: string },
  ) => Promise<{ id: number; name: string }>;
  /** The source, opened once the test's rows are written (a cache reads the domain names when first asked). */
  open: () => RedirectLinkSource & Partial<DomainNameSource>;
}

let made = 0;
const alias = () => `Rs${process.pid.toString(36)}${Date.now().toString(36)}${(++made).toString(36)}`;

export function describeRedirectSourceContract(name: string, make: () => RedirectSourceSubject): void {
  describe(`${name}: the RedirectLinkSource contract`, () => {
    test('the app’s host finds a link without a domain by its alias in any case; unknown aliases and domain links are null', async () => {
      const s = make();
      const account = await s.account();
      const [own, onDomain] = [alias(), alias()];
      const id = await s.link(account, { alias: own, url: 'https://own.example/' });
      const domain = await s.domain(account, { verified: true });
      await s.link(account, { alias: onDomain, url: 'https://domain.example/', domainId: domain.id });
      const source = s.open();
      const found = await source.find(s.appHost, own.toUpperCase());
      assert.deepEqual(
        found && {
          id: found.id,
          accountId: found.accountId,
          domainId: found.domainId,
          alias: found.alias,
          url: found.url,
          disabled: found.disabled,
        },
        {
          id,
          accountId: account,
          domainId: null,
          alias: own,
          url: 'https://own.example/',
          disabled: false,
        },
      );
      assert.equal((await source.find(s.appHost, own.toLowerCase()))?.id, id);
      assert.equal(await source.find(s.appHost, alias()), null);
      assert.equal(await source.find(s.appHost, onDomain), null, 'a custom domain’s link is not on the app’s host');
      assert.equal(await source.domain(s.appHost), null, 'the app’s host is no custom domain');
    });

    test('a verified domain finds its own links only, and answers its pages', async () => {
      const s = make();
      const account = await s.account();
      const domain = await s.domain(account, {
        verified: true,
        indexPage: 'https://index.example/',
        notFoundPage: 'https://missing.example/',
      });
      const other = await s.domain(account, { verified: true });
      const [shared, appOnly] = [alias(), alias()];
      const onDomain = await s.link(account, { alias: shared, url: 'https://domain.example/', domainId: domain.id });
      const onOther = await s.link(account, { alias: shared, url: 'https://other.example/', domainId: other.id });
      const onApp = await s.link(account, { alias: shared, url: 'https://app.example/' });
      await s.link(account, { alias: appOnly, url: 'https://app.example/' });
      const source = s.open();
      assert.deepEqual(
        [
          (await source.find(domain.name, shared))?.id,
          (await source.find(other.name, shared.toLowerCase()))?.id,
          (await source.find(s.appHost, shared))?.id,
        ],
        [onDomain, onOther, onApp],
        'one alias, one link a host',
      );
      assert.equal((await source.find(domain.name, shared))?.domainId, domain.id);
      assert.equal(await source.find(domain.name, appOnly), null, 'the app’s links are not on a custom domain');
      const pages = await source.domain(domain.name);
      assert.deepEqual(
        pages && {
          id: pages.id,
          accountId: pages.accountId,
          indexPage: pages.indexPage,
          notFoundPage: pages.notFoundPage,
        },
        {
          id: domain.id,
          accountId: account,
          indexPage: 'https://index.example/',
          notFoundPage: 'https://missing.example/',
        },
      );
    });

    test('a pending claim serves nothing and is not among the domain names; a verified one is', async () => {
      const s = make();
      const account = await s.account();
      const [pending, verified] = [
        await s.domain(account, { verified: false }),
        await s.domain(account, { verified: true }),
      ];
      const a = alias();
      await s.link(account, { alias: a, url: 'https://pending.example/', domainId: pending.id });
      const source = s.open();
      assert.equal(await source.find(pending.name, a), null);
      assert.equal(await source.domain(pending.name), null);
      if (source.domainNames) {
        const names = await source.domainNames();
        assert.ok(names.includes(verified.name), 'a verified domain is named');
        assert.ok(!names.includes(pending.name), 'a pending claim is not');
        assert.ok(!names.includes(s.appHost));
      }
    });

    test('a disabled link is still found (the visit answers it), with its state', async () => {
      const s = make();
      const account = await s.account();
      const a = alias();
      const id = await s.link(account, { alias: a, url: 'https://off.example/', disabled: true });
      const found = await s.open().find(s.appHost, a);
      assert.deepEqual(found && [found.id, found.disabled], [id, true]);
    });
  });
}
