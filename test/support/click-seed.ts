/**
 * Many click rows of one link written straight in SQL, in one statement on the database's side
 * (a recursive CTE on SQLite, generate_series on PostgreSQL): half a million in seconds, with
 * facts varied enough that nearly every minute's rows differ, the heaviest replay a preview has.
 * Row i comes `stepMs` × i before `newest`. Nothing else is written (no rollups, no counters).
 */
import { sql } from 'kysely';
import type { Storage } from '../../src/adapters/storage/connect.ts';

const COUNTRIES = [
  'US',
  'DE',
  'FR',
  'GB',
  'IT',
  'ES',
  'NL',
  'BE',
  'AT',
  'CH',
  'PL',
  'SE',
  'CZ',
  'DK',
  'NO',
  'FI',
  'IE',
  'PT',
  'GR',
  'HU',
  'RO',
  'BR',
  'CA',
  'MX',
  'JP',
  'IN',
  'AU',
  'TR',
  'UA',
  'AR',
];
const PLATFORMS = ['iOS', 'Android', 'Windows', 'OS X', 'Linux', 'Chrome OS'];
const BROWSERS = ['Chrome', 'Mobile Safari', 'Firefox', 'Edge', 'Samsung Internet', 'Opera', 'Brave', 'Vivaldi'];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pl',
  'sv',
  'cs',
  'da',
  'no',
  'fi',
  'pt',
  'el',
  'hu',
  'ro',
  'ja',
  'tr',
  'uk',
  'ko',
];
/** Referrer hosts r0.example … r96.example. */
const REFERRERS = 97;

export const SEEDED = {
  countries: COUNTRIES,
  languages: LANGUAGES,
  referrers: Array.from({ length: REFERRERS }, (_, i) => `r${i}.example`),
};

/** `values[expr mod n]` as SQL; the values are the constants above, quoted. */
const pick = (expr: string, values: readonly string[]) =>
  `case (${expr}) % ${values.length} ${values.map((v, k) => `when ${k} then '${v}'`).join(' ')} end`;

function selectRows(i: string, at: string): string {
  return `${at} - ${i} * $step,
    ${pick(`${i} * 7`, COUNTRIES)}, ${pick(`${i} / 3`, PLATFORMS)}, ${pick(`${i} / 7`, BROWSERS)}, ${pick(`${i} / 11`, DEVICES)},
    ${pick(`${i} / 5`, LANGUAGES)}, 'r' || (${i} % ${REFERRERS}) || '.example', 0`;
}

const COLUMNS = 'link_id, account_id, at, country, platform, browser, device, language, referrer_host, is_bot';

/** Writes the rows through `storage`'s own connection (a server's, or one a test opens on its database). */
export async function seedClicks(
  storage: Pick<Storage, 'db' | 'engine'>,
  o: { linkId: number; accountId: number; rows: number; newest: number; stepMs: number },
): Promise<void> {
  const n = Math.floor(o.rows);
  const head = `${Math.floor(o.linkId)}, ${Math.floor(o.accountId)}`;
  if (storage.engine === 'sqlite') {
    const body = selectRows('i', String(Math.floor(o.newest))).replace('$step', String(Math.floor(o.stepMs)));
    await sql
      .raw(
        `insert into clicks (${COLUMNS}) with recursive n(i) as (select 0 union all select i + 1 from n where i < ${n - 1}) select ${head}, ${body} from n`,
      )
      .execute(storage.db);
    return;
  }
  const body = selectRows('i', `${Math.floor(o.newest)}::bigint`).replace('$step', `${Math.floor(o.stepMs)}::bigint`);
  await sql
    .raw(`insert into clicks (${COLUMNS}) select ${head}, ${body} from generate_series(0, ${n - 1}) as i`)
    .execute(storage.db);
  await sql.raw('analyze clicks').execute(storage.db);
}
