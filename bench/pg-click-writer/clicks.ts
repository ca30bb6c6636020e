import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Click } from '../../src/core/clicks/click.ts';
import type { Database } from '../../src/adapters/storage/schema.ts';
import { ACCEPT_LANGUAGES, CLIENT_ADDRESSES, REFERERS, USER_AGENTS, linkNumber } from '../redirect/traffic.ts';

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'IN', 'BR', 'JP', 'CA', 'ES', 'IT', 'NL', 'PL', 'SE', 'MX', 'AU', null];
const BROWSERS = ['Chrome', 'Safari', 'Firefox', 'Edge', 'Opera', 'Samsung Internet', null];
const PLATFORMS = ['Windows', 'macOS', 'Android', 'iOS', 'Linux', null];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'ja', 'it', 'nl', 'pl', null];
const REFERRERS = [...Array.from({ length: 40 }, (_, i) => `site${i}.example`), null];

/** An account and `count` links, straight into the tables. */
export async function seedLinks(
  db: Kysely<Database>,
  count: number,
): Promise<{ accountId: number; linkIds: number[] }> {
  const now = Date.now();
  const account = await db
    .insertInto('accounts')
    .values({
      name: 'bench',
      email: `bench-${randomBytes(4).toString('hex')}@example.com`,
      timezone: 'UTC',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`
    insert into links (account_id, alias, alias_key, url, target_type, disabled, privacy, clicks, created_at, updated_at)
    select cast(${account.id} as integer), 'w' || n, 'w' || n, 'https://example.com/' || n, 0, 0, 0, 0,
           cast(${now} as bigint), cast(${now} as bigint)
    from generate_series(1, cast(${count} as integer)) as n`.execute(db);
  const rows = await db.selectFrom('links').select('id').where('account_id', '=', account.id).orderBy('id').execute();
  return { accountId: account.id, linkIds: rows.map((r) => r.id) };
}

/** What the redirect stamps for each of the redirect bench's user agents and addresses (traffic.ts), in order. */
const UA_FIELDS: Array<[browser: string, platform: string, device: string]> = [
  ['Mobile Safari', 'iOS', 'mobile'],
  ['Chrome Mobile', 'Android', 'mobile'],
  ['Chrome', 'Windows', 'desktop'],
  ['Safari', 'macOS', 'desktop'],
  ['Edge', 'Windows', 'desktop'],
  ['Firefox', 'Linux', 'desktop'],
  ['Firefox', 'Ubuntu', 'desktop'],
  ['Chrome', 'Chrome OS', 'desktop'],
];
const ADDRESS_COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'ZA', 'AU', 'IN', 'SE', 'US', null, 'US'];
const REFERRER_HOSTS = REFERERS.map((r) => (r === '' ? null : new URL(r).hostname || null));

/**
 * The clicks the redirect bench's traffic makes (bench/redirect/traffic.ts: request j's link
 * and visitor headers), so the writer's rate can stand beside that bench's redirect rate: few
 * visitors a link, each seen again and again.
 */
export function redirectBenchClicks(accountId: number, linkIds: readonly number[], count: number): Click[] {
  const now = Date.now();
  const day = new Date(now).toISOString().slice(0, 10);
  const hot = linkIds.length;
  const clicks: Click[] = [];
  for (let j = 0; j < count; j++) {
    const linkId = linkIds[linkNumber(j, hot, hot) - 1]!;
    const ua = j % USER_AGENTS.length,
      address = j % CLIENT_ADDRESSES.length;
    const [browser, platform, device] = UA_FIELDS[ua]!;
    clicks.push({
      linkId,
      accountId,
      at: now + j,
      day,
      hour: new Date(now).getUTCHours(),
      visitor: `${linkId}-${ua}-${address}`.padEnd(32, '0'),
      country: ADDRESS_COUNTRIES[address] ?? null,
      city: null,
      browser,
      platform,
      device,
      language: ACCEPT_LANGUAGES[j % ACCEPT_LANGUAGES.length]!.slice(0, 2),
      referrerHost: REFERRER_HOSTS[j % REFERRER_HOSTS.length] ?? null,
      isBot: false,
    });
  }
  return clicks;
}

/**
 * The harder case: every dimension varied at random, one click in twenty a bot, nearly every
 * visitor new, all on today's UTC day.
 */
export function variedClicks(accountId: number, linkIds: readonly number[], count: number): Click[] {
  const now = Date.now();
  const day = new Date(now).toISOString().slice(0, 10);
  const clicks: Click[] = [];
  for (let i = 0; i < count; i++) {
    const r = (Math.random() * 2 ** 31) | 0;
    const isBot = r % 20 === 0;
    clicks.push({
      linkId: pick(linkIds, (r >>> 3) % linkIds.length),
      accountId,
      at: now + i,
      day,
      hour: (r >>> 5) % 24,
      visitor: isBot ? null : randomBytes(16).toString('hex'),
      country: pick(COUNTRIES, r >>> 7),
      city: null,
      browser: pick(BROWSERS, r >>> 11),
      platform: pick(PLATFORMS, r >>> 13),
      device: pick(DEVICES, r >>> 17),
      language: pick(LANGUAGES, r >>> 19),
      referrerHost: pick(REFERRERS, r >>> 23),
      isBot,
    });
  }
  return clicks;
}
