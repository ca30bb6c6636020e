import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { RedirectInvalidation } from '../redirect/redirect-events.ts';
import type { AccountStore, SessionStore } from '../accounts/account-store.ts';
import type { Account } from '../accounts/account.ts';
import type { Link } from '../links/link.ts';
import { epochMsToZonedDate } from '../expiration/ends-at.ts';
import { addDays, DEFAULT_RANGE_DAYS } from '../stats/range.ts';
import type { AccountSummary, AdminStore, InstanceTotals, OperatorLink, WorkspaceSummary } from './admin-store.ts';
import { normaliseEmail, revealHidden } from '../accounts/email.ts';

export interface AdminServiceDeps {
  store: AdminStore;
  accounts: Pick<AccountStore, 'findByEmail'>;
  sessions: Pick<SessionStore, 'deleteAll'>;
  /** The accounts feature's deletion (everything the account owns, its cached links, its caps). */
  deleteAccount(accountId: number): Promise<void>;
  /** Drops the redirect's cached links of an account or a link (on every instance with Redis). */
  invalidation: RedirectInvalidation;
  clock: Clock;
}

const adminMessages = {
  notYourself: (what: 'suspend' | 'delete') => `You cannot ${what} your own account.`,
  personal:
    'A personal workspace is suspended with its account (Accounts): that ends the person’s sessions and keys too.',
  confirmEmail: "Type the account's email address exactly to confirm.",
} as const;

/**
 * What an instance's operators do across accounts (issue 16): totals, every account and link,
 * suspension, deletion, and taking a link down. The routes that call it are for operators only.
 */
export class AdminService {
  constructor(private readonly deps: AdminServiceDeps) {}

  /** The totals, with "recent" meaning the last 30 local days of the operator's zone. */
  totals(timeZone: string): Promise<InstanceTotals> {
    const today = epochMsToZonedDate(this.deps.clock.now(), timeZone);
    return this.deps.store.totals(addDays(today, -(DEFAULT_RANGE_DAYS - 1)));
  }

  accounts(search: string | undefined, page: PageRequest): Promise<Page<AccountSummary>> {
    return this.deps.store.accounts(search || undefined, page);
  }

  links(search: string | undefined, page: PageRequest): Promise<Page<OperatorLink>> {
    return this.deps.store.links(search || undefined, page);
  }

  workspaces(search: string | undefined, page: PageRequest): Promise<Page<WorkspaceSummary>> {
    return this.deps.store.workspaces(search || undefined, page);
  }

  /**
   * A team workspace's suspension: its links answer as disabled and its keys as unknown; its
   * members keep signing in and working in their other workspaces. A personal workspace goes
   * with its account (suspend), which ends the person's sessions and keys everywhere.
   */
  async setWorkspaceSuspended(workspaceId: number, suspended: boolean): Promise<WorkspaceSummary> {
    const found = await this.deps.store.workspace(workspaceId);
    if (!found) throw new NotFoundError('workspace');
    if (found.personal) throw ValidationError.of('workspace', adminMessages.personal);
    await this.deps.store.setSuspended(workspaceId, suspended ? this.deps.clock.now() : null);
    this.deps.invalidation.accountChanged(workspaceId);
    return (await this.deps.store.workspace(workspaceId))!;
  }

  async account(id: number): Promise<AccountSummary> {
    const found = await this.deps.store.account(id);
    if (!found) throw new NotFoundError('account');
    return found;
  }

  /**
   * Its keys answer 401 and its sessions end at once (authenticate and resolve refuse a
   * suspended account); its links answer as disabled once the redirect's caches drop them.
   */
  async suspend(operator: Account, accountId: number): Promise<Account> {
    if (operator.id === accountId) throw ValidationError.of('account', adminMessages.notYourself('suspend'));
    const account = await this.deps.store.setSuspended(accountId, this.deps.clock.now());
    if (!account) throw new NotFoundError('account');
    await this.deps.sessions.deleteAll(accountId, null);
    this.deps.invalidation.accountChanged(accountId);
    return account;
  }

  async reinstate(accountId: number): Promise<Account> {
    const account = await this.deps.store.setSuspended(accountId, null);
    if (!account) throw new NotFoundError('account');
    this.deps.invalidation.accountChanged(accountId);
    return account;
  }

  /** Deletes an account with all it owns; `confirmation` must be its email address. */
  async deleteAccount(operator: Account, accountId: number, confirmation: string): Promise<Account> {
    if (operator.id === accountId) throw ValidationError.of('account', adminMessages.notYourself('delete'));
    const { account } = await this.account(accountId);
    // An email with hidden characters (made before they were refused) is typed as the page spells it.
    const typed = normaliseEmail(confirmation);
    if (typed !== normaliseEmail(account.email) && typed !== normaliseEmail(revealHidden(account.email))) {
      throw ValidationError.of('email', adminMessages.confirmEmail);
    }
    await this.deps.deleteAccount(accountId);
    return account;
  }

  /** Takes a link down (abuse, phishing) or puts it back; the owner sees it as disabled. */
  async setLinkDisabled(linkId: number, disabled: boolean): Promise<Link> {
    const link = await this.deps.store.setLinkDisabled(linkId, disabled, this.deps.clock.now());
    if (!link) throw new NotFoundError('link');
    this.deps.invalidation.linkChanged(linkId);
    return link;
  }

  /** For the CLI: makes an account an operator, or no longer one. */
  async setOperator(email: string, on: boolean): Promise<Account> {
    const found = await this.deps.accounts.findByEmail(normaliseEmail(email));
    const account = found && (await this.deps.store.setOperator(found.id, on));
    if (!account) throw new NotFoundError('account');
    return account;
  }
}
