import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { AuditChanges, AuditVia } from '../../../core/audit/audit-entry.ts';
import type { LinkHistory, LinkState, LinkVersion, NewLinkVersion } from '../../../core/links/link-history.ts';
import { offsetOf, type Page, type PageRequest } from '../../../core/shared/page.ts';
import type { Database } from '../schema.ts';

type Query = SelectQueryBuilder<Database, 'link_history', object>;

// Versions a statement inserts: a bulk chunk's or an import batch's links, within every engine's parameter bound.
const ROWS_PER_INSERT = 500;

/**
 * The links' history (docs/design/history.md) on whatever the change runs on: a unit of work's
 * transaction makes each version one with its change. A version's number is its link's last
 * plus one, read in the change's transaction after the change's own write to the link's row,
 * whose lock makes concurrent changes of one link take turns.
 */
export class SqlLinkHistory implements LinkHistory {
  constructor(private readonly db: Kysely<Database>) {}

  async append(versions: readonly NewLinkVersion[]): Promise<void> {
    if (versions.length === 0) return;
    const last = await this.lastVersions([...new Set(versions.map((v) => v.linkId))]);
    const rows = versions.map((v) => {
      const version = (last.get(v.linkId) ?? 0) + 1;
      last.set(v.linkId, version);
      return {
        link_id: v.linkId,
        account_id: v.accountId,
        version,
        at: v.at,
        user_id: v.actor.userId,
        key_id: v.actor.keyId,
        via: v.actor.via,
        restored_from: v.restoredFrom,
        changes: JSON.stringify(v.changes),
        state: JSON.stringify(v.state),
      };
    });
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
      await this.db
        .insertInto('link_history')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .execute();
  }

  async list(accountId: number, linkId: number, page: PageRequest): Promise<Page<LinkVersion>> {
    const owned = this.db
      .selectFrom('link_history')
      .where('link_history.link_id', '=', linkId)
      .where('link_history.account_id', '=', accountId);
    const [rows, count] = await Promise.all([
      this.withNames(owned)
        .orderBy('link_history.version', 'desc')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
      owned.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toVersion), total: Number(count.n), page: page.page, perPage: page.perPage };
  }

  async find(accountId: number, linkId: number, version: number): Promise<LinkVersion | null> {
    const row = await this.withNames(
      this.db
        .selectFrom('link_history')
        .where('link_history.link_id', '=', linkId)
        .where('link_history.account_id', '=', accountId)
        .where('link_history.version', '=', version),
    ).executeTakeFirst();
    return row ? toVersion(row) : null;
  }

  async latestStates(linkIds: readonly number[]): Promise<Map<number, LinkState>> {
    if (linkIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('link_history as h')
      .select(['h.link_id', 'h.state'])
      .where('h.link_id', 'in', [...new Set(linkIds)])
      .where((eb) =>
        eb(
          'h.version',
          '=',
          eb
            .selectFrom('link_history as newest')
            .select((n) => n.fn.max('newest.version').as('last'))
            .whereRef('newest.link_id', '=', 'h.link_id'),
        ),
      )
      .execute();
    return new Map(rows.map((r) => [r.link_id, JSON.parse(r.state) as LinkState]));
  }

  private withNames(query: Query) {
    return query
      .leftJoin('accounts as person', 'person.id', 'link_history.user_id')
      .selectAll('link_history')
      .select('person.name as actor_name');
  }

  private async lastVersions(linkIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('link_history')
      .select((eb) => ['link_id', eb.fn.max('version').as('last')])
      .where('link_id', 'in', linkIds)
      .groupBy('link_id')
      .execute();
    return new Map(rows.map((r) => [r.link_id, Number(r.last)]));
  }
}

type Row = LinkHistoryRow & { actor_name: string | null };
type LinkHistoryRow = Database['link_history'];

function toVersion(r: Row): LinkVersion {
  return {
    linkId: r.link_id,
    accountId: r.account_id,
    version: r.version,
    at: Number(r.at),
    actor: { userId: r.user_id, keyId: r.key_id, via: r.via as AuditVia },
    actorName: r.actor_name ?? null,
    restoredFrom: r.restored_from,
    changes: JSON.parse(r.changes) as AuditChanges,
    state: JSON.parse(r.state) as LinkState,
  };
}
