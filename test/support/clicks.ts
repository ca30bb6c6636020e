import type { Kysely } from 'kysely';
import type { Click } from '../../src/core/clicks/click.ts';
import type { Database } from '../../src/adapters/storage/schema.ts';

/** A human click of link 1 with nothing known about its visitor, and `fields` over that. */
export function aClick(fields: Partial<Click> = {}): Click {
  return {
    linkId: 1,
    accountId: 1,
    at: 0,
    day: '2026-11-23',
    hour: 0,
    visitor: null,
    country: null,
    city: null,
    browser: null,
    platform: null,
    device: null,
    language: null,
    referrerHost: null,
    isBot: false,
    ...fields,
  };
}

/** The day writerClick's clicks are on. */
export const WRITER_DAY = '2026-11-23';

/** A human visitor's click on WRITER_DAY at 10:30 UTC, every field the redirect fills filled in, and `over` over that (the writer-thread tests). */
export function writerClick(linkId: number, accountId: number, over: Partial<Click> = {}): Click {
  return aClick({
    linkId,
    accountId,
    at: Date.parse(`${WRITER_DAY}T10:30:00Z`),
    day: WRITER_DAY,
    hour: 10,
    visitor: `v-${linkId}`,
    country: 'US',
    browser: 'Chrome',
    platform: 'Windows',
    device: 'desktop',
    language: 'en',
    referrerHost: 't.co',
    ...over,
  });
}

/** A rollup row's count (0 when there is none): link, dimension, day and value, as the writers keep them. */
export async function rollupCount(
  db: Kysely<Database>,
  linkId: number,
  day: string,
  dimension: string,
  value = '',
): Promise<number> {
  const row = await db
    .selectFrom('click_rollups')
    .select('count')
    .where('link_id', '=', linkId)
    .where('dimension', '=', dimension)
    .where('day', '=', day)
    .where('value', '=', value)
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** How many click rows a link has. */
export async function clickRowsOf(db: Kysely<Database>, linkId: number): Promise<number> {
  return (await db.selectFrom('clicks').select('id').where('link_id', '=', linkId).execute()).length;
}
