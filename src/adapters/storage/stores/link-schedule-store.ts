import type { Kysely, Selectable } from 'kysely';
import type { AuditVia } from '../../../core/audit/audit-entry.ts';
import type { LinkInput } from '../../../core/links/link-input.ts';
import type { LinkSchedules, NewSchedule, Schedule, ScheduleStatus } from '../../../core/links/link-schedules.ts';
import { offsetOf, type Page, type PageRequest } from '../../../core/shared/page.ts';
import type { Database, LinkSchedulesTable } from '../schema.ts';

/**
 * The scheduled changes (docs/design/history.md), on whatever the change runs on. `settle` is
 * the claim: a conditional update from pending, so of two instances (two transactions) only the
 * one whose update changed the row goes on; on PostgreSQL the second waits for the first's
 * commit and then finds the row settled.
 */
export class SqlLinkSchedules implements LinkSchedules {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(s: NewSchedule): Promise<Schedule> {
    const row = await this.db
      .insertInto('link_schedules')
      .values({
        link_id: s.linkId,
        account_id: s.accountId,
        at: s.at,
        changes: JSON.stringify(s.changes),
        status: 'pending',
        reason: null,
        user_id: s.actor.userId,
        key_id: s.actor.keyId,
        time_zone: s.timeZone,
        created_at: s.createdAt,
        done_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSchedule(row, s.actor.via);
  }

  async list(accountId: number, linkId: number, page: PageRequest): Promise<Page<Schedule>> {
    const owned = this.db
      .selectFrom('link_schedules')
      .where('link_id', '=', linkId)
      .where('account_id', '=', accountId);
    const [rows, count] = await Promise.all([
      owned
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
      owned.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map((r) => toSchedule(r)), total: Number(count.n), page: page.page, perPage: page.perPage };
  }

  async find(accountId: number, linkId: number, id: number): Promise<Schedule | null> {
    const row = await this.db
      .selectFrom('link_schedules')
      .selectAll()
      .where('id', '=', id)
      .where('link_id', '=', linkId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? toSchedule(row) : null;
  }

  async due(now: number, limit: number): Promise<Schedule[]> {
    const rows = await this.db
      .selectFrom('link_schedules')
      .selectAll()
      .where('status', '=', 'pending')
      .where('at', '<=', now)
      .orderBy('at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => toSchedule(r));
  }

  async settle(id: number, status: Exclude<ScheduleStatus, 'pending'>, now: number, reason?: string): Promise<boolean> {
    const result = await this.db
      .updateTable('link_schedules')
      .set({ status, done_at: now, reason: reason ?? null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

function toSchedule(r: Selectable<LinkSchedulesTable>, via: AuditVia = 'api'): Schedule {
  return {
    id: r.id,
    linkId: r.link_id,
    accountId: r.account_id,
    at: Number(r.at),
    changes: JSON.parse(r.changes) as LinkInput,
    actor: { userId: r.user_id, keyId: r.key_id, via },
    timeZone: r.time_zone,
    createdAt: Number(r.created_at),
    status: r.status as ScheduleStatus,
    reason: r.reason,
    doneAt: r.done_at === null ? null : Number(r.done_at),
  };
}
