// What every ConversionStore promises (src/core/conversions/conversion.ts), as conversion tracking
// and its results rely on it (docs/design/rules.md): one conversion per click id and name (a repeat
// answers the first), a click's names, and the clicks and conversions per rule and variant. Run
// against the in-memory fake (unit; it has no clicks, so the grouping tests skip) and the SQL
// store on both engines.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConversionStore, NewConversion } from '../../src/core/conversions/conversion.ts';

type Method = keyof ConversionStore;

export interface ConversionStoreSubject {
  conversions: ConversionStore;
  /** A fresh link of a fresh account. */
  link: () => Promise<number>;
  /** Human clicks of the link, each decided by a rule and variant (null: by the link's own url), written and rolled up. */
  clicks?: (linkId: number, decisions: ReadonlyArray<{ rule: number; variant: number | null } | null>) => Promise<void>;
}

export interface ConversionStoreContractOptions {
  /** The methods the subject has, when not all of them (a fake made for a few tests). */
  has?: readonly Method[];
}

let made = 0;
const clickId = () => `c${process.pid.toString(36)}${Date.now().toString(36)}${(++made).toString(36)}`;
const AT = Date.parse('2026-11-20T10:00:00Z');

const conversion = (linkId: number, over: Partial<NewConversion> = {}): NewConversion => ({
  linkId,
  clickId: clickId(),
  rule: null,
  variant: null,
  name: 'sale',
  value: null,
  currency: null,
  clickedAt: AT,
  createdAt: AT + 1000,
  ...over,
});

const byKey = <T extends { rule: number | null; variant: number | null }>(rows: T[]) =>
  [...rows].sort(
    (a, b) =>
      (a.rule ?? -1) - (b.rule ?? -1) ||
      (a.variant ?? -1) - (b.variant ?? -1) ||
      JSON.stringify(a).localeCompare(JSON.stringify(b)),
  );

export function describeConversionStoreContract(
  name: string,
  make: () => ConversionStoreSubject,
  options: ConversionStoreContractOptions = {},
): void {
  describe(`${name}: the ConversionStore contract`, () => {
    /** A test that calls these methods: skipped, and said so, on a subject without them. */
    const it = (title: string, uses: Method[], fn: (s: ConversionStoreSubject) => Promise<void>) => {
      const missing = options.has ? uses.filter((m) => !options.has!.includes(m)) : [];
      test(title, { skip: missing.length > 0 ? `${name} has no ${missing.join(', ')}` : false }, () => fn(make()));
    };

    it('record stores a conversion as given, with an id', ['record'], async (s) => {
      const link = await s.link();
      const given = conversion(link, { rule: 1, variant: 0, value: 12.5, currency: 'EUR' });
      const { conversion: stored, created } = await s.conversions.record(given);
      assert.equal(created, true);
      assert.ok(Number.isSafeInteger(stored.id) && stored.id > 0);
      assert.deepEqual({ ...stored, id: 0 }, { ...given, id: 0 });
    });

    it(
      'a second of the same click id and name answers the first, unchanged; another name is another',
      ['record'],
      async (s) => {
        const link = await s.link();
        const first = await s.conversions.record(conversion(link, { value: 10 }));
        const again = await s.conversions.record({ ...first.conversion, value: 99, createdAt: AT + 5000 });
        assert.equal(again.created, false);
        assert.deepEqual(again.conversion, first.conversion);
        const other = await s.conversions.record({ ...first.conversion, name: 'signup' });
        assert.equal(other.created, true);
        assert.notEqual(other.conversion.id, first.conversion.id);
      },
    );

    it(
      'namesOf: the names a click converted under, at most the limit; another click’s are not',
      ['record', 'namesOf'],
      async (s) => {
        const link = await s.link();
        const click = clickId();
        for (const n of ['sale', 'signup', 'lead'])
          await s.conversions.record(conversion(link, { clickId: click, name: n }));
        await s.conversions.record(conversion(link, { name: 'other-click' }));
        assert.deepEqual((await s.conversions.namesOf(click, 10)).sort(), ['lead', 'sale', 'signup']);
        assert.equal((await s.conversions.namesOf(click, 2)).length, 2);
        assert.deepEqual(await s.conversions.namesOf(clickId(), 10), []);
      },
    );

    it(
      'conversionGroups: per rule, variant, name and currency the count and summed value; distinct clicks converted; clickedIn keeps the clicks made in it',
      ['record', 'conversionGroups'],
      async (s) => {
        const [link, other] = [await s.link(), await s.link()];
        const [c1, c2, c3] = [clickId(), clickId(), clickId()];
        const at = (c: string, clickedAt: number) => ({ clickId: c, clickedAt });
        await s.conversions.record(
          conversion(link, { ...at(c1, 1000), rule: 0, variant: 1, name: 'sale', value: 10, currency: 'EUR' }),
        );
        await s.conversions.record(conversion(link, { ...at(c1, 1000), rule: 0, variant: 1, name: 'signup' }));
        await s.conversions.record(
          conversion(link, { ...at(c2, 5000), rule: 0, variant: 1, name: 'sale', value: 2.5, currency: 'EUR' }),
        );
        await s.conversions.record(
          conversion(link, { clickId: clickId(), rule: 0, variant: 1, name: 'sale', value: 4, currency: 'USD' }),
        );
        await s.conversions.record(conversion(link, { clickId: c3, name: 'sale' }));
        await s.conversions.record(conversion(other, { name: 'sale', value: 100 }));
        const groups = await s.conversions.conversionGroups(link);
        assert.deepEqual(byKey(groups.byName), [
          { rule: null, variant: null, name: 'sale', currency: null, count: 1, value: 0 },
          { rule: 0, variant: 1, name: 'sale', currency: 'EUR', count: 2, value: 12.5 },
          { rule: 0, variant: 1, name: 'sale', currency: 'USD', count: 1, value: 4 },
          { rule: 0, variant: 1, name: 'signup', currency: null, count: 1, value: 0 },
        ]);
        assert.deepEqual(byKey(groups.converted), [
          { rule: null, variant: null, converted: 1 },
          { rule: 0, variant: 1, converted: 3 },
        ]);
        const inPeriod = await s.conversions.conversionGroups(link, { from: 1000, to: 5000 });
        assert.deepEqual(byKey(inPeriod.byName), [
          { rule: 0, variant: 1, name: 'sale', currency: 'EUR', count: 1, value: 10 },
          { rule: 0, variant: 1, name: 'signup', currency: null, count: 1, value: 0 },
        ]);
        assert.deepEqual(byKey(inPeriod.converted), [{ rule: 0, variant: 1, converted: 1 }]);
        assert.deepEqual(await s.conversions.conversionGroups(await s.link()), { byName: [], converted: [] });
      },
    );

    it(
      'clickGroups: human clicks per deciding rule and variant; the undecided under null',
      ['clickGroups'],
      async (s) => {
        if (!s.clicks) throw new Error('a subject with clickGroups makes clicks');
        const link = await s.link();
        assert.deepEqual(await s.conversions.clickGroups(link), [{ rule: null, variant: null, clicks: 0 }]);
        await s.clicks(link, [
          { rule: 0, variant: 0 },
          { rule: 0, variant: 1 },
          { rule: 0, variant: 1 },
          { rule: 2, variant: null },
          null,
        ]);
        assert.deepEqual(byKey(await s.conversions.clickGroups(link)), [
          { rule: null, variant: null, clicks: 1 },
          { rule: 0, variant: 0, clicks: 1 },
          { rule: 0, variant: 1, clicks: 2 },
          { rule: 2, variant: null, clicks: 1 },
        ]);
      },
    );
  });
}
