import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Account } from '../../../core/accounts/account.ts';
import type { Link } from '../../../core/links/link.ts';
import { offsetOf, type PageRequest } from '../../../core/shared/page.ts';
import type {
  AccountSummary,
  AdminStore,
  InstanceTotals,
  OperatorLink,
  WorkspaceSummary,
} from '../../../core/admin/admin-store.ts';
import type { Database } from '../schema.ts';
import { containsIgnoringCase, countOf, pageOf } from '../sql-helpers.ts';
import { toAccount } from './account-store.ts';
import { unsettledCounts, toLink } from './link-rows.ts';

const num = (v: number | string | bigint | null | undefined): number => Number(v ?? 0);

/**
 * The operators' queries, across accounts. Lists page by id (the primary key); their searches
 * scan, which an operator's occasional search can afford. Totals read counters and rollups only.
 */
export class SqlAdminStore implements AdminStore {
  constructor(private readonly db: Kysely<Database>) {}

  async totals(sinceDay: string): Promise<InstanceTotals> {
    const [accounts, links, pending, recent] = await Promise.all([
      this.db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst(),
      this.db
        .selectFrom('links')
        .select((eb) => [eb.fn.countAll().as('count'), eb.fn.sum<number | string | null>('clicks').as('clicks')])
        .executeTakeFirst(),
      // The clicks not yet settled into links.clicks (link-click-counts.ts).
      this.db
        .selectFrom('link_click_counts')
        .select((eb) => eb.fn.sum<number | string | null>('clicks').as('clicks'))
        .executeTakeFirst(),
      this.db
        .selectFrom('account_click_days')
        .select((eb) => eb.fn.sum<number | string | null>('count').as('clicks'))
        .where('day', '>=', sinceDay)
        .executeTakeFirst(),
    ]);
    return {
      accounts: countOf(accounts),
      links: countOf(links),
      clicks: num(links?.clicks) + num(pending?.clicks),
      recentClicks: num(recent?.clicks),
    };
  }

  async accounts(search: string | undefined, page: PageRequest) {
    const matching = (eb: ExpressionBuilder<Database, 'accounts'>) =>
      eb.or([
        containsIgnoringCase('accounts.email', search ?? ''),
        containsIgnoringCase('accounts.name', search ?? ''),
      ]);
    // People only: a team workspace's row holds no person (it has its own list).
    const total = this.db
      .selectFrom('accounts')
      .where('accounts.personal', '=', 1)
      .$if(Boolean(search), (q) => q.where(matching))
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirst()
      .then(countOf);
    const items = this.accountRows()
      .where('accounts.personal', '=', 1)
      .$if(Boolean(search), (q) => q.where(matching))
      .orderBy('accounts.id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute()
      .then((rows) => rows.map((r) => ({ account: toAccount(r), links: num(r.link_count) })));
    return pageOf(total, items, page);
  }

  async account(id: number): Promise<AccountSummary | null> {
    const row = await this.accountRows().where('accounts.id', '=', id).executeTakeFirst();
    return row ? { account: toAccount(row), links: num(row.link_count) } : null;
  }

  async workspaces(search: string | undefined, page: PageRequest) {
    const matching = containsIgnoringCase('accounts.name', search ?? '');
    const total = this.db
      .selectFrom('accounts')
      .$if(Boolean(search), (q) => q.where(matching))
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirst()
      .then(countOf);
    const items = this.workspaceRows()
      .$if(Boolean(search), (q) => q.where(matching))
      .orderBy('accounts.id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute()
      .then((rows) => rows.map(toWorkspaceSummary));
    return pageOf(total, items, page);
  }

  async workspace(id: number): Promise<WorkspaceSummary | null> {
    const row = await this.workspaceRows().where('accounts.id', '=', id).executeTakeFirst();
    return row ? toWorkspaceSummary(row) : null;
  }

  /** Workspaces with their numbers of members and links (each counted on its index). */
  private workspaceRows() {
    return this.db
      .selectFrom('accounts')
      .select([
        'accounts.id',
        'accounts.name',
        'accounts.email',
        'accounts.personal',
        'accounts.created_at',
        'accounts.suspended_at',
      ])
      .select((eb) => [
        eb
          .selectFrom('links')
          .select(eb.fn.countAll().as('n'))
          .whereRef('links.account_id', '=', 'accounts.id')
          .as('link_count'),
        eb
          .selectFrom('memberships')
          .select(eb.fn.countAll().as('n'))
          .whereRef('memberships.workspace_id', '=', 'accounts.id')
          .as('member_count'),
      ]);
  }

  /** Accounts with their number of links (counted on the links_account index). */
  private accountRows() {
    return this.db
      .selectFrom('accounts')
      .selectAll('accounts')
      .select((eb) =>
        eb
          .selectFrom('links')
          .select(eb.fn.countAll().as('n'))
          .whereRef('links.account_id', '=', 'accounts.id')
          .as('link_count'),
      );
  }

  async links(search: string | undefined, page: PageRequest) {
    let q = this.db
      .selectFrom('links')
      .innerJoin('accounts', 'accounts.id', 'links.account_id')
      .leftJoin('domains', 'domains.id', 'links.domain_id');
    if (search) {
      q = q.where((eb) =>
        eb.or(
          ['links.alias', 'links.url', 'links.title', 'accounts.email'].map((column) =>
            containsIgnoringCase(column, search),
          ),
        ),
      );
    }
    const total = q
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirst()
      .then(countOf);
    const items = q
      .selectAll('links')
      .select(unsettledCounts)
      .select([
        'accounts.email as owner_email',
        'accounts.suspended_at as owner_suspended_at',
        'domains.name as domain_name',
      ])
      .orderBy('links.id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute()
      .then((rows) =>
        rows.map((r): OperatorLink => ({
          link: toLink(r, []),
          owner: { id: r.account_id, email: r.owner_email, suspended: r.owner_suspended_at !== null },
          domainName: r.domain_name,
        })),
      );
    return pageOf(total, items, page);
  }

  async setSuspended(accountId: number, at: number | null): Promise<Account | null> {
    let q = this.db.updateTable('accounts').set({ suspended_at: at }).where('id', '=', accountId);
    // Suspending again keeps the first time.
    if (at !== null) q = q.where('suspended_at', 'is', null);
    await q.execute();
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async setOperator(accountId: number, on: boolean): Promise<Account | null> {
    const row = await this.db
      .updateTable('accounts')
      .set({ is_admin: on ? 1 : 0 })
      .where('id', '=', accountId)
      .returningAll()
      .executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async setLinkDisabled(linkId: number, disabled: boolean, now: number): Promise<Link | null> {
    const row = await this.db
      .updateTable('links')
      .set({ disabled: disabled ? 1 : 0, blocked_at: disabled ? now : null, updated_at: now })
      .where('id', '=', linkId)
      .returningAll()
      .returning(unsettledCounts)
      .executeTakeFirst();
    return row ? toLink(row, []) : null;
  }
}

function toWorkspaceSummary(r: {
  id: number;
  name: string;
  email: string;
  personal: number;
  created_at: number;
  suspended_at: number | null;
  link_count: number | string | bigint | null;
  member_count: number | string | bigint | null;
}): WorkspaceSummary {
  return {
    id: r.id,
    name: r.name,
    personal: r.personal === 1,
    email: r.personal === 1 ? r.email : null,
    members: num(r.member_count),
    links: num(r.link_count),
    createdAt: Number(r.created_at),
    suspendedAt: r.suspended_at === null ? null : Number(r.suspended_at),
  };
}
