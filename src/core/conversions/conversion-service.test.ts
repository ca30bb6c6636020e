import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConversionService } from './conversion-service.ts';
import { ClickIds } from './click-id.ts';
import { MemoryConversions } from '../../../test/support/fakes/conversion-fakes.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { Link } from '../links/link.ts';

const NOW = Date.parse('2026-11-27T10:00:00Z');
const ids = new ClickIds('secret', 90);

function service(store = new MemoryConversions()) {
  const link = { id: 7, accountId: 1, url: 'https://x.example/', rules: null } as unknown as Link;
  const links = {
    findById: async (accountId: number, id: number) => (accountId === 1 && id === 7 ? link : null),
    findAnyById: async (id: number) => (id === 7 ? link : null),
  };
  return new ConversionService({
    links,
    store,
    rollups: { counts: async () => [], summary: async () => ({ total: 0, unique: 0, bots: 0 }) },
    clickIds: async () => ids,
    saveRules: async () => Promise.reject(new Error('unused')),
    clock: { now: () => NOW },
  });
}

test('the click id decides the link, rule and variant; the second of a name is the first', async () => {
  const s = service();
  const cid = ids.issue({ linkId: 7, at: NOW - 1000, rule: 2, variant: 1 });
  const first = await s.record(1, { click_id: cid, name: 'sale', value: 10 });
  assert.equal(first.created, true);
  assert.deepEqual(
    [first.conversion.linkId, first.conversion.rule, first.conversion.variant, first.conversion.clickedAt],
    [7, 2, 1, NOW - 1000],
  );
  const again = await s.record(null, { click_id: cid, name: 'sale', value: 99 });
  assert.equal(again.created, false);
  assert.equal(again.conversion.value, 10);
});

test("another workspace's click is not found; a forged or old id is refused naming click_id", async () => {
  const s = service();
  const cid = ids.issue({ linkId: 7, at: NOW, rule: null, variant: null });
  await assert.rejects(s.record(2, { click_id: cid, name: 'sale' }), NotFoundError);
  await assert.rejects(
    s.record(1, {
      click_id: new ClickIds('other', 90).issue({ linkId: 7, at: NOW, rule: null, variant: null }),
      name: 'sale',
    }),
    (e) => e instanceof ValidationError && 'click_id' in e.fields,
  );
  await assert.rejects(
    s.record(1, {
      click_id: ids.issue({ linkId: 7, at: NOW - 91 * 86_400_000, rule: null, variant: null }),
      name: 'sale',
    }),
    (e) => e instanceof ValidationError && 'click_id' in e.fields,
  );
  await assert.rejects(
    s.record(1, { click_id: ids.issue({ linkId: 8, at: NOW, rule: null, variant: null }), name: 'sale' }),
    NotFoundError,
  );
});

test('at most 20 names a click; a known name still answers', async () => {
  const s = service();
  const cid = ids.issue({ linkId: 7, at: NOW, rule: null, variant: null });
  for (let i = 0; i < 20; i++) await s.record(1, { click_id: cid, name: `n${i}` });
  await assert.rejects(
    s.record(1, { click_id: cid, name: 'n20' }),
    (e) => e instanceof ValidationError && 'name' in e.fields,
  );
  assert.equal((await s.record(1, { click_id: cid, name: 'n5' })).created, false);
});
