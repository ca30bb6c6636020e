import type { Account } from '../accounts/account.ts';
import type { Link } from '../links/link.ts';
import type { Page, PageRequest } from '../shared/page.ts';

/** The instance in four numbers, for its operators. */
export interface InstanceTotals {
  accounts: number;
  links: number;
  /** Every click counted, ever (the sum of the links' counters). */
  clicks: number;
  /** Clicks on the local days from `since` on (the rollups' `total`). */
  recentClicks: number;
}

/** An account as the operators' list shows it. */
export interface AccountSummary {
  account: Account;
  links: number;
}

/** A workspace as the operators' list shows it (docs/design/teams.md). */
export interface WorkspaceSummary {
  id: number;
  name: string;
  personal: boolean;
  /** A personal workspace's person (their email); null for a team's. */
  email: string | null;
  members: number;
  links: number;
  createdAt: number;
  suspendedAt: number | null;
}

/** A link of any account, with whose it is and the host of its short URL. */
export interface OperatorLink {
  link: Link;
  owner: { id: number; email: string; suspended: boolean };
  /** The custom domain's name; null: the app's own host. */
  domainName: string | null;
}

/** The operators' reads and writes across accounts: nothing here is scoped to one account. */
export interface AdminStore {
  /** Counted from the links' counters and the rollups (days from `sinceDay`), never click rows. */
  totals(sinceDay: string): Promise<InstanceTotals>;
  /** People (their personal workspaces), newest first; search: a case-insensitive part of the email or the name. */
  accounts(search: string | undefined, page: PageRequest): Promise<Page<AccountSummary>>;
  /** Newest first; search: a case-insensitive part of the alias, URL, title or owner's email. */
  links(search: string | undefined, page: PageRequest): Promise<Page<OperatorLink>>;
  account(id: number): Promise<AccountSummary | null>;
  /** Every workspace, personal and team, newest first; search: a case-insensitive part of the name. */
  workspaces(search: string | undefined, page: PageRequest): Promise<Page<WorkspaceSummary>>;
  workspace(id: number): Promise<WorkspaceSummary | null>;
  /** Sets or clears the suspension (a suspended account keeps its first suspension time); null: no such account. */
  setSuspended(accountId: number, at: number | null): Promise<Account | null>;
  setOperator(accountId: number, on: boolean): Promise<Account | null>;
  /** null: no such link. */
  setLinkDisabled(linkId: number, disabled: boolean, now: number): Promise<Link | null>;
}
