// Every linkpix connection to PostgreSQL starts with the session settings of docs/operations.md,
// whichever connection of the pool a query gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { POSTGRES_SKIP } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

test(
  'PostgreSQL sessions: no JIT, no parallel workers, random reads priced as on SSDs',
  { skip: POSTGRES_SKIP ?? false },
  async () => {
    await withEmptyStorage('postgres', async (storage) => {
      const settings = () =>
        sql<{ jit: string; workers: string; random: string }>`select current_setting('jit') as jit,
        current_setting('max_parallel_workers_per_gather') as workers, current_setting('random_page_cost') as random`.execute(
          storage.db,
        );
      // Several at once, so that more than one connection of the pool answers.
      for (const { rows } of await Promise.all([settings(), settings(), settings()])) {
        assert.deepEqual(rows[0], { jit: 'off', workers: '0', random: '1.1' });
      }
    });
  },
);
