import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { loadConfig } from '../../src/app/config.ts';
import { createContainer } from '../../src/app/container.ts';
import { ALIAS_PREFIX } from './traffic.ts';

export const LINK_KINDS =
  '40% plain, 20% by country (US GB DE FR JP), 20% by platform (iOS Android Windows OS X), 20% rotating over 3 URLs';

/**
 * With --rules, every odd link's rules instead (docs/design/rules.md): twenty, of every condition that
 * needs no cookie; every even link is plain, so one server answers both in the same run
 * (traffic.ts, LinkSet). A rule decides 95 % of the bench's varied visitors (the country list
 * first, 46 %), so nearly every click of these links adds a `decision` sum; 4.7 % test all
 * twenty and reach the link's url.
 */
export const TWENTY_RULES = [
  { when: { country: ['US', 'GB', 'DE', 'FR', 'JP'] }, url: 'https://a.example/' },
  { when: { os: ['iOS'], device: ['mobile'] }, url: 'https://b.example/' },
  { when: { os: ['Android'] }, url: 'https://c.example/' },
  { when: { browser: ['Safari', 'Edge'] }, url: 'https://d.example/' },
  { when: { language: ['de', 'fr', 'es', 'it', 'nl'] }, url: 'https://e.example/' },
  { when: { referrer: ['news.example', 'social.example'] }, url: 'https://f.example/' },
  { when: { query: { utm_source: 'newsletter' } }, url: 'https://g.example/' },
  { when: { query: { ref: '*', campaign: 'spring' } }, url: 'https://h.example/' },
  {
    when: { time: { days: ['sat', 'sun'], from: '00:00', to: '00:01', tz: 'Europe/Berlin' } },
    url: 'https://i.example/',
  },
  { when: { date: { from: '2099-01-01T00:00:00Z' } }, url: 'https://j.example/' },
  { when: { visits: { below: 0 } }, url: 'https://k.example/' },
  { when: { ip: ['10.0.0.0/8', '192.168.0.0/16', '2001:db8::/32'] }, url: 'https://l.example/' },
  { when: { device: ['tablet'] }, url: 'https://m.example/' },
  { when: { country: ['CA'], not: { language: ['fr'] } }, url: 'https://n.example/' },
  { when: { os: ['Linux', 'Chrome OS'], browser: ['Firefox'] }, url: 'https://o.example/' },
  { when: { referrer: ['none'], language: ['ja'] }, url: 'https://p.example/' },
  { when: { query: { utm_medium: 'qr' } }, url: 'https://q.example/' },
  {
    when: { time: { from: '03:00', to: '03:01', tz: 'Pacific/Auckland' }, country: ['NZ'] },
    url: 'https://r.example/',
  },
  { when: { browser: ['Samsung Internet', 'Opera'] }, url: 'https://s.example/' },
  { when: { not: { device: ['desktop'] } }, url: 'https://t.example/' },
];

/**
 * A migrated SQLite database with one account (made by the service, as the CLI does) and
 * `links` links loaded with one SQL statement (as bench/api-list.ts does). Link n is
 * `${ALIAS_PREFIX}n`, its kind n % 10: 0–3 plain, 4–5 country, 6–7 platform, 8–9 rotation.
 * No pixels, passwords, expiry or caps: each visit is a redirect and a click.
 */
export async function seedDatabase(
  databaseUrl: string,
  links: number,
  options: { rules?: boolean } = {},
): Promise<{ accountId: number; seconds: number }> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', TITLE_FETCH: 'false' });
  const c = createContainer(config, { titles: null });
  try {
    await c.migrate();
    const { account } = await c.accounts.createAccount({ email: 'bench@example.com', name: 'bench' });
    const t0 = performance.now();
    const now = Date.now();
    const e = (host: string) => `"https://${host}.example.com/' || n || '"`;
    await sql`
      with recursive s(n) as (select 1 union all select n + 1 from s where n < cast(${links} as integer))
      insert into links (account_id, alias, alias_key, url, target_type, country_target, platform_target, rotation_target,
                         last_rotation, disabled, privacy, clicks, created_at, updated_at)
      select cast(${account.id} as integer), ${ALIAS_PREFIX} || n, ${ALIAS_PREFIX} || n, 'https://example.com/landing/' || n,
             case when n % 10 < 4 then 0 when n % 10 < 6 then 1 when n % 10 < 8 then 2 else 4 end,
             case when n % 10 in (4, 5) then ${sql.raw(`'[{"key":"US","value":${e('us')}},{"key":"GB","value":${e('gb')}},{"key":"DE","value":${e('de')}},{"key":"FR","value":${e('fr')}},{"key":"JP","value":${e('jp')}}]'`)} end,
             case when n % 10 in (6, 7) then ${sql.raw(`'[{"key":"iOS","value":${e('ios')}},{"key":"Android","value":${e('android')}},{"key":"Windows","value":${e('windows')}},{"key":"OS X","value":${e('mac')}}]'`)} end,
             case when n % 10 in (8, 9) then ${sql.raw(`'[{"value":${e('r1')}},{"value":${e('r2')}},{"value":${e('r3')}}]'`)} end,
             0, 0, 0, 0, cast(${now} as bigint), cast(${now} as bigint)
      from s`.execute(c.storage.db);
    if (options.rules === true) {
      await sql`update links set target_type = 0, country_target = null, platform_target = null, rotation_target = null`.execute(
        c.storage.db,
      );
      await sql`update links set rules = ${JSON.stringify(TWENTY_RULES)} where cast(substr(alias, ${ALIAS_PREFIX.length + 1}) as integer) % 2 = 1`.execute(
        c.storage.db,
      );
    }
    await sql`analyze`.execute(c.storage.db);
    return { accountId: account.id, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await c.close();
  }
}

export interface ClickCounts {
  rows: number;
  /** sum(links.clicks): the counters the API shows. */
  counted: number;
}

/** Read after the server has exited, so every buffered click has been written. */
export function countClicks(path: string): ClickCounts {
  const db = new SQLite(path, { readonly: true });
  try {
    const rows = (db.prepare('select count(*) as n from clicks').get() as { n: number }).n;
    const counted = (db.prepare('select coalesce(sum(clicks), 0) as n from links').get() as { n: number }).n;
    return { rows, counted };
  } finally {
    db.close();
  }
}
