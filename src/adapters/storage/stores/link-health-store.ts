import { sql, type Kysely } from 'kysely';
import type { HealthReason, HealthStatus, LinkHealth } from '../../../core/health/health.ts';
import { UNKNOWN_HEALTH } from '../../../core/health/health.ts';
import type { ClaimedLink, LinkHealthStore } from '../../../core/health/ports.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';

interface HealthRow {
  url: string | null;
  status: string;
  code: number | null;
  reason: string | null;
  checked_at: number | string | null;
  broken_since: number | string | null;
}

const numOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** A row as health; a row of another destination than the link's (its url changed since) is unknown. */
function healthOfRow(row: HealthRow, linkUrl: string): LinkHealth {
  if (row.status === 'unknown' || row.url !== linkUrl) return UNKNOWN_HEALTH;
  return {
    status: row.status as HealthStatus,
    code: row.code === null ? null : Number(row.code),
    reason: row.reason as HealthReason | null,
    checkedAt: numOrNull(row.checked_at),
    brokenSince: numOrNull(row.broken_since),
  };
}

/**
 * Links' destination health (migration 0043, docs/design/health.md). A round first gives the enabled
 * links never taken a row (due at once, so first), then leases the due rows in one UPDATE: on
 * PostgreSQL they are picked `for update skip locked` and the lease is checked again on the row
 * as it is after a concurrent claim, so two instances never take the same link; SQLite has one
 * writer, so the statement alone is enough.
 */
export class SqlLinkHealthStore implements LinkHealthStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  async claimDue(holder: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedLink[]> {
    await sql`insert into link_health (link_id, status, next_check_at)
      select id, 'unknown', 0 from links
      where disabled = 0 and not exists (select 1 from link_health h where h.link_id = links.id)
      order by id limit ${limit}
      on conflict (link_id) do nothing`.execute(this.db);
    const lock = this.engine === 'postgres' ? sql`for update skip locked` : sql``;
    const free = sql`(lease_until is null or lease_until < ${now})`;
    const { rows: taken } = await sql<{ link_id: number }>`
      with picked as materialized (
        select h.link_id from link_health h
        where h.next_check_at <= ${now} and (h.lease_until is null or h.lease_until < ${now})
          and exists (select 1 from links l where l.id = h.link_id and l.disabled = 0)
        order by h.next_check_at, h.link_id limit ${limit} ${lock})
      update link_health set lease_holder = ${holder}, lease_until = ${leaseUntil}
      where ${free} and link_id in (select link_id from picked)
      returning link_id`.execute(this.db);
    if (taken.length === 0) return [];
    const rows = await this.db
      .selectFrom('link_health as h')
      .innerJoin('links as l', 'l.id', 'h.link_id')
      .select(['h.link_id', 'l.account_id', 'l.url as link_url', 'h.url', 'h.status', 'h.code', 'h.reason'])
      .select(['h.checked_at', 'h.broken_since'])
      .where(
        'h.link_id',
        'in',
        taken.map((r) => Number(r.link_id)),
      )
      .orderBy('h.next_check_at')
      .orderBy('h.link_id')
      .execute();
    return rows.map((r) => ({
      linkId: Number(r.link_id),
      accountId: Number(r.account_id),
      url: r.link_url,
      health: healthOfRow(r, r.link_url),
    }));
  }

  async record(linkId: number, url: string, health: LinkHealth, nextCheckAt: number): Promise<void> {
    const values = {
      url,
      status: health.status,
      code: health.code,
      reason: health.reason,
      checked_at: health.checkedAt,
      broken_since: health.brokenSince,
      next_check_at: nextCheckAt,
      lease_holder: null,
      lease_until: null,
    };
    // A link deleted meanwhile has no row to refer to: nothing to record.
    const link = await this.db.selectFrom('links').select('id').where('id', '=', linkId).executeTakeFirst();
    if (!link) return;
    await this.db
      .insertInto('link_health')
      .values({ link_id: linkId, ...values })
      .onConflict((oc) => oc.column('link_id').doUpdateSet(values))
      .execute();
  }

  async healthOf(accountId: number, linkIds: readonly number[]): Promise<Map<number, LinkHealth>> {
    const out = new Map<number, LinkHealth>();
    if (linkIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('link_health as h')
      .innerJoin('links as l', 'l.id', 'h.link_id')
      .select(['h.link_id', 'l.url as link_url', 'h.url', 'h.status', 'h.code', 'h.reason', 'h.checked_at'])
      .select('h.broken_since')
      .where('l.account_id', '=', accountId)
      .where('h.link_id', 'in', [...linkIds])
      .execute();
    for (const r of rows) {
      const health = healthOfRow(r, r.link_url);
      if (health.status !== 'unknown') out.set(Number(r.link_id), health);
    }
    return out;
  }
}
