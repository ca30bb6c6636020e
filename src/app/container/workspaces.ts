import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import { AuditService } from '../../core/audit/audit-service.ts';
import { WorkspaceAccess } from '../../core/workspaces/workspace-access.ts';
import { WorkspacesService } from '../../core/workspaces/workspaces-service.ts';
import { MembersService } from '../../core/workspaces/members-service.ts';
import { INVITATION_LIMITERS, InvitationsService } from '../../core/workspaces/invitations-service.ts';
import { WorkspaceKeysService } from '../../core/workspaces/workspace-keys-service.ts';
import { unitOfWorkOn } from '../../adapters/storage/transactions.ts';
import { SqlAccountStore } from '../../adapters/storage/stores/account-store.ts';
import { SqlWorkspaceStore } from '../../adapters/storage/stores/workspace-store.ts';
import { SqlAuditLog, SqlAuditStore } from '../../adapters/storage/stores/audit-store.ts';
import { errorsOf, windowLimiterOf, type Base } from './base.ts';

/** Teams (docs/design/teams.md): workspaces, their members, invitations and keys, and their audit logs. */
export function workspaceServices(
  base: Base,
  deps: { accounts: SqlAccountStore; accountsService: AccountsService; mailServer: Mailer | null },
) {
  const { storage, clock, tuning, visits } = base;
  const store = new SqlWorkspaceStore(storage.db);
  const access = new WorkspaceAccess(store);
  // Each change and its audit entry commit together; the key's made through the account store.
  const unitOfWork = unitOfWorkOn(storage.db, (trx) => ({
    store: new SqlWorkspaceStore(trx),
    accounts: new SqlAccountStore(trx),
    audit: new SqlAuditLog(trx),
  }));
  const membershipsChanged = (userIds: readonly number[]) => {
    for (const id of userIds) visits.sessionEnds.publish(id);
  };
  const common = { store, access, clock, unitOfWork };
  const workspaces = new WorkspacesService({
    ...common,
    deleteWorkspace: (id) => deps.accountsService.deleteAccount(id),
    membershipsChanged,
  });
  const limiter = windowLimiterOf(visits);
  const window = tuning.INVITE_LIMIT_WINDOW_SECONDS;
  const invitations = new InvitationsService({
    ...common,
    accounts: deps.accounts,
    invitationLimits: {
      perInviter: limiter(INVITATION_LIMITERS.perInviter, tuning.INVITE_LIMIT_PER_INVITER, window),
      perWorkspace: limiter(INVITATION_LIMITERS.perWorkspace, tuning.INVITE_LIMIT_PER_WORKSPACE, window),
    },
    mail: deps.mailServer && {
      mailer: deps.mailServer,
      appUrl: base.config.APP_URL,
      onError: errorsOf(base, 'linkpix: an invitation email was not sent (the invitation stands):'),
    },
  });
  return {
    workspaces,
    members: new MembersService({ ...common, membershipsChanged }),
    invitations,
    workspaceKeys: new WorkspaceKeysService({ ...common, accounts: deps.accounts }),
    audit: new AuditService(new SqlAuditStore(storage.db), workspaces, clock, tuning.AUDIT_RETENTION_DAYS),
  };
}
