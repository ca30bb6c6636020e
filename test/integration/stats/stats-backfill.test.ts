import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import * as initial from '../../../src/adapters/storage/migrations/0001-initial.ts';
import * as clicks from '../../../src/adapters/storage/migrations/0002-clicks.ts';
import * as stats from '../../../src/adapters/storage/migrations/0003-stats.ts';
import { linkRow } from '../../support/link-rows.ts';

for (const engine of ENGINES) {
  describe(
    `statistics: migration 0003 rolls up the clicks written before it [${engine.name}]`,
    { skip: engine.skip ?? false },
    () => {
      test('rollups in the account zone, bots apart, totals equal links.clicks', async () => {
        await withEmptyStorage(engine.name, async ({ db, engine: e }) => {
          const raw = db as unknown as Kysely<unknown>;
          await initial.up(raw, e);
          await clicks.up(raw, e);
          const account = await db
            .insertInto('accounts')
            .values({ name: 'a', email: 'a@example.com', timezone: 'Europe/Paris', created_at: 0 })
            .returning('id')
            .executeTakeFirstOrThrow();
          const link = await db
            .insertInto('links')
            .values(linkRow(account.id, 'x', { url: 'https://example.com', clicks: 3 }))
            .returning('id')
            .executeTakeFirstOrThrow();
          const row = (at: string, over: Record<string, unknown> = {}) => ({
            link_id: link.id,
            account_id: account.id,
            at: Date.parse(at),
            country: 'FR',
            city: null,
            browser: 'Firefox',
            platform: 'Linux',
            device: 'desktop',
            language: 'fr',
            referrer_host: null,
            is_bot: 0,
            ...over,
          });
          await db
            .insertInto('clicks')
            .values([
              row('2026-03-09T22:59:59Z'), // 23:59:59 in Paris
              row('2026-03-09T23:00:00Z', { country: 'DE' }), // midnight in Paris: the 10th
              row('2026-03-09T23:30:00Z'),
              row('2026-03-09T23:40:00Z', { is_bot: 1, browser: null }),
            ])
            .execute();

          await stats.up(raw, e);
          const rollups = await db
            .selectFrom('click_rollups')
            .select(['dimension', 'day', 'value', 'count'])
            .where('dimension', 'in', ['total', 'hour', 'country', 'bot', 'unique'])
            .orderBy('dimension')
            .orderBy('day')
            .orderBy('value')
            .execute();
          assert.deepEqual(
            rollups.map((r) => `${r.dimension} ${r.day} ${r.value} ${Number(r.count)}`),
            [
              'bot 2026-03-10  1',
              'country 2026-03-09 FR 1',
              'country 2026-03-10 DE 1',
              'country 2026-03-10 FR 1',
              'hour 2026-03-09 23 1',
              'hour 2026-03-10 00 2',
              'total 2026-03-09  1',
              'total 2026-03-10  2',
            ],
          );
        });
      });
    },
  );
}
