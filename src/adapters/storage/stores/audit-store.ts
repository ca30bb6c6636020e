import type { Kysely, SelectQueryBuilder } from 'kysely';
import type {
  AuditChanges,
  AuditEntry,
  AuditFilter,
  AuditVia,
  NewAuditEntry,
} from '../../../core/audit/audit-entry.ts';
import type { AuditLog, AuditStore } from '../../../core/audit/audit-store.ts';
import { offsetOf, type PageRequest } from '../../../core/shared/page.ts';
import type { Database } from '../schema.ts';

// Retention deletes in slices: each statement, and the lock it holds, stays short.
const ROWS_PER_DELETE = 10_000;

type Query = SelectQueryBuilder<Database, 'audit_entries', object>;

function filtered(query: Query, workspaceId: number, filter: AuditFilter): Query {
  let q = query.where('audit_entries.workspace_id', '=', workspaceId);
  if (filter.actor !== undefined) q = q.where('audit_entries.user_id', '=', filter.actor);
  if (filter.action !== undefined) {
    // A type alone (`link`) takes each of its actions.
    q = filter.action.includes('.')
      ? q.where('audit_entries.action', '=', filter.action)
      : q.where('audit_entries.action', 'like', `${filter.action}.%`);
  }
  if (filter.targetType !== undefined) q = q.where('audit_entries.target_type', '=', filter.targetType);
  if (filter.targetId !== undefined) q = q.where('audit_entries.target_id', '=', filter.targetId);
  if (filter.from !== undefined) q = q.where('audit_entries.at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('audit_entries.at', '<', filter.to);
  return q;
}

function withNames(query: Query) {
  return query
    .leftJoin('accounts as person', 'person.id', 'audit_entries.user_id')
    .leftJoin('api_keys as key', 'key.id', 'audit_entries.key_id')
    .selectAll('audit_entries')
    .select(['person.name as actor_name', 'key.name as key_name'])
    .orderBy('audit_entries.id', 'desc');
}

type Row = Awaited<ReturnType<ReturnType<typeof withNames>['executeTakeFirstOrThrow']>>;

const toEntry = (r: Row): AuditEntry => ({
  id: r.id,
  workspaceId: r.workspace_id,
  at: Number(r.at),
  actor: { userId: r.user_id, keyId: r.key_id, via: r.via as AuditVia },
  actorName: r.actor_name ?? null,
  keyName: r.key_id === null ? null : (r.key_name ?? null),
  action: r.action,
  target: { type: r.target_type, id: r.target_id },
  changes: JSON.parse(r.changes) as AuditChanges,
});

/** The audit log's writes, on whatever the change runs on: a unit of work's transaction makes them one. */
export class SqlAuditLog implements AuditLog {
  constructor(private readonly db: Kysely<Database>) {}

  async record(entries: readonly NewAuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .insertInto('audit_entries')
      .values(
        entries.map((e) => ({
          workspace_id: e.workspaceId,
          at: e.at,
          user_id: e.actor.userId,
          key_id: e.actor.keyId,
          via: e.actor.via,
          action: e.action,
          target_type: e.target.type,
          target_id: e.target.id,
          changes: JSON.stringify(e.changes),
        })),
      )
      .execute();
  }
}

export class SqlAuditStore implements AuditStore {
  constructor(private readonly db: Kysely<Database>) {}

  async list(workspaceId: number, filter: AuditFilter, page: PageRequest) {
    const base = filtered(this.db.selectFrom('audit_entries'), workspaceId, filter);
    const [rows, count] = await Promise.all([
      withNames(base).limit(page.perPage).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toEntry), total: Number(count.n), page: page.page, perPage: page.perPage };
  }

  async listBefore(workspaceId: number, filter: AuditFilter, beforeId: number | null, limit: number) {
    let base = filtered(this.db.selectFrom('audit_entries'), workspaceId, filter);
    if (beforeId !== null) base = base.where('audit_entries.id', '<', beforeId);
    return (await withNames(base).limit(limit).execute()).map(toEntry);
  }

  async prune(before: number): Promise<number> {
    let pruned = 0;
    for (;;) {
      const result = await this.db
        .deleteFrom('audit_entries')
        .where('id', 'in', (eb) =>
          eb.selectFrom('audit_entries').select('id').where('at', '<', before).limit(ROWS_PER_DELETE),
        )
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      pruned += n;
      if (n < ROWS_PER_DELETE) return pruned;
    }
  }
}
