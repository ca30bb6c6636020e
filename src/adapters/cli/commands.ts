import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import type { ApiKey } from '../../core/accounts/account.ts';
import type { DomainOperator } from '../../core/domains/domain-operator.ts';
import type { AdminService } from '../../core/admin/admin-service.ts';
import type { PrivacyReport } from '../../core/privacy/privacy-report.ts';
import type { SignInService } from '../../core/accounts/sign-in-service.ts';
import type { PasswordResets } from '../../core/security/password-resets.ts';
import { domainJson } from './domain-json.ts';
import { importCommand, type ImportDeps } from './import-command.ts';
import { exportStaticCommand, type ExportStaticDeps } from './export-static.ts';
import { personIn } from './workspace-flag.ts';
import type { WorkspacesService } from '../../core/workspaces/workspaces-service.ts';
import type { WorkspaceKeysService } from '../../core/workspaces/workspace-keys-service.ts';
import { CLI_OPERATOR } from '../../core/audit/audit-entry.ts';
import type { SealKeys } from '../secrets/seal-keys.ts';
import { newSealKeyText, sealKeyOf } from '../secrets/seal-key.ts';

export interface CliDeps extends ImportDeps, ExportStaticDeps {
  accounts: AccountsService;
  workspaces: WorkspacesService;
  workspaceKeys: WorkspaceKeysService;
  domainOperator: DomainOperator;
  admin: AdminService;
  privacy: PrivacyReport;
  signIn: SignInService;
  security: { resets: PasswordResets };
  sealKeys: Pick<SealKeys, 'check' | 'rotate' | 'forgetLost' | 'forgetDatabaseKey'>;
  migrate: () => Promise<string[]>;
  /** The first line of standard input (a secret is never taken as an argument: it would show in `ps`). */
  readLine: () => Promise<string>;
}

export type Flags = Record<string, string | undefined>;

export class UsageError extends Error {}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const keyJson = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: iso(k.createdAt),
  revoked_at: iso(k.revokedAt),
});

/** The one positional argument after a command's words (a host name). */
function argument(args: readonly string[], what: string): string {
  if (args.length !== 1 || !args[0]) throw new UsageError(`one ${what} is required`);
  return args[0];
}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** Each command returns the JSON object it prints; the shell prints and exits. */
export interface Command {
  usage: string;
  /** Positional arguments after the command's words: none unless said. */
  takesArgument?: true;
  run(deps: CliDeps, flags: Flags, args: readonly string[]): Promise<unknown>;
}

export const COMMANDS: Record<string, Command> = {
  'users create': {
    usage: 'users create --email E [--name N] [--timezone TZ]   create an account and its first API key',
    async run({ accounts }, flags) {
      const { account, apiKey, key } = await accounts.createAccount({
        email: required(flags, 'email'),
        name: flags.name,
        timezone: flags.timezone,
      });
      return {
        id: account.id,
        email: account.email,
        name: account.name,
        timezone: account.timezone,
        api_key: apiKey,
        key_id: key.id,
      };
    },
  },
  'keys create': {
    usage:
      'keys create --email E [--workspace ID] [--name N]   add an API key of E in the workspace (default: their own; shown once)',
    async run(deps, flags) {
      const email = required(flags, 'email');
      if (flags.workspace === undefined) {
        const { account, key, apiKey } = await deps.accounts.createKey(email, flags.name ?? null, CLI_OPERATOR);
        return { id: account.id, email: account.email, api_key: apiKey, key_id: key.id };
      }
      const { person, workspace, actor } = await personIn(deps, email, flags.workspace);
      const { key, apiKey } = await deps.workspaceKeys.create(actor, workspace!.id, { name: flags.name ?? 'CLI' });
      return { id: person.id, email: person.email, workspace_id: workspace!.id, api_key: apiKey, key_id: key.key.id };
    },
  },
  'keys list': {
    usage: "keys list --email E [--workspace ID]                list E's keys in the workspace (never the secrets)",
    async run(deps, flags) {
      const email = required(flags, 'email');
      if (flags.workspace === undefined) return { keys: (await deps.accounts.listKeys(email)).map(keyJson) };
      const { person, workspace, actor } = await personIn(deps, email, flags.workspace);
      const keys = (await deps.workspaceKeys.list(actor, workspace!.id)).filter((k) => k.key.userId === person.id);
      return { workspace_id: workspace!.id, keys: keys.map((k) => keyJson(k.key)) };
    },
  },
  'keys revoke': {
    usage: 'keys revoke (--key lpx_… | --email E [--workspace ID] --id N)   revoke one key',
    async run(deps, flags) {
      const { accounts } = deps;
      if (flags.key) {
        const { account, key } = await accounts.revokeKeyByValue(flags.key, CLI_OPERATOR);
        return { email: account.email, key_id: key.id, revoked: true };
      }
      const id = Number(required(flags, 'id'));
      if (!Number.isInteger(id) || id < 1) throw new UsageError('--id must be a key id (see keys list)');
      if (flags.workspace === undefined) {
        await accounts.revokeKey(required(flags, 'email'), id, CLI_OPERATOR);
        return { email: flags.email, key_id: id, revoked: true };
      }
      const { workspace, actor } = await personIn(deps, required(flags, 'email'), flags.workspace);
      await deps.workspaceKeys.revoke(actor, workspace!.id, id);
      return { email: flags.email, workspace_id: workspace!.id, key_id: id, revoked: true };
    },
  },
  'users operator': {
    takesArgument: true,
    usage:
      'users operator <email> [--off]                      make an account an operator of the web app (--off: no longer)',
    async run({ admin }, flags, args) {
      const account = await admin.setOperator(argument(args, 'email address'), flags.off === undefined);
      return { id: account.id, email: account.email, operator: account.isAdmin };
    },
  },
  'users password': {
    takesArgument: true,
    usage:
      "users password <email>                              set an account's password from stdin's first line; ends its sessions",
    async run({ signIn, readLine }, _flags, args) {
      const email = argument(args, 'email address');
      const account = await signIn.setPassword(email, await readLine());
      return { id: account.id, email: account.email, password_set: true, sessions_ended: true };
    },
  },
  'users reset-link': {
    takesArgument: true,
    usage:
      'users reset-link <email>                            print a password reset link for an account (single use, valid 1 hour)',
    async run({ security }, _flags, args) {
      const { account, link, expiresAt } = await security.resets.linkFor(argument(args, 'email address'));
      return { id: account.id, email: account.email, reset_link: link, expires_at: iso(expiresAt) };
    },
  },
  'domains verify': {
    takesArgument: true,
    usage:
      'domains verify <name> [--email E [--workspace ID]]  make a claimed domain serve without its proof (whose claim: E in the workspace)',
    async run(deps, flags, args) {
      const name = argument(args, 'host name');
      if (flags.workspace === undefined) return domainJson(await deps.domainOperator.verify(name, flags.email));
      const { workspace } = await personIn(deps, required(flags, 'email'), flags.workspace);
      return domainJson(await deps.domainOperator.verify(name, flags.email, workspace!.id));
    },
  },
  'domains reserve': {
    takesArgument: true,
    usage: 'domains reserve <name>                              keep a host name from every account',
    async run({ domainOperator }, _flags, args) {
      const { name, newly, claims } = await domainOperator.reserve(argument(args, 'host name'));
      return { name, reserved: true, already: !newly, claims: claims.map(domainJson) };
    },
  },
  'domains unreserve': {
    takesArgument: true,
    usage: 'domains unreserve <name>                            let accounts claim a reserved name again',
    async run({ domainOperator }, _flags, args) {
      const { name, was } = await domainOperator.unreserve(argument(args, 'host name'));
      return { name, reserved: false, was_reserved: was };
    },
  },
  'seal-key new': {
    usage: 'seal-key new                                        print a new key for SEAL_KEY (nothing is changed)',
    async run() {
      const key = newSealKeyText();
      return { seal_key: key, key_id: sealKeyOf(key).id };
    },
  },
  'seal-key check': {
    usage:
      'seal-key check                                      open one sealed secret per key with this SEAL_KEY (or key file) and report; changes nothing',
    async run({ sealKeys }) {
      const { source, sealing, sealed, toReseal, databaseKey, fileMissing } = await sealKeys.check();
      return {
        source,
        key_id: sealing,
        sealed,
        to_reseal_at_start: toReseal,
        database_key: databaseKey,
        ...(fileMissing ? { file_missing: true } : {}),
      };
    },
  },
  'seal-key rotate': {
    usage:
      "seal-key rotate                                     reseal every secret under SEAL_KEY's first key (SQLite's key file: a new key)",
    async run({ sealKeys }) {
      const { key, resealed, file } = await sealKeys.rotate();
      return { key_id: key, resealed, ...(file ? { file } : {}) };
    },
  },
  'seal-key forget-lost': {
    usage:
      'seal-key forget-lost (--key-id ID[,ID] | --yes)     a key lost for good: delete the secrets under it (their two-factor off, audited)',
    async run({ sealKeys }, flags) {
      const keyIds = (flags['key-id'] ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      if (keyIds.length === 0 && flags.yes === undefined) {
        throw new UsageError(
          "name the lost keys with --key-id ID[,ID] (the start's error names them), or --yes for every secret no key at hand opens",
        );
      }
      const lost = await sealKeys.forgetLost(keyIds.length > 0 ? { keyIds } : { all: true });
      return { forgotten: lost.map((row) => ({ what: row.column.what, id: row.key })) };
    },
  },
  'seal-key forget-database-key': {
    usage:
      "seal-key forget-database-key                        delete the database's old seal key once nothing is sealed under it",
    async run({ sealKeys }) {
      return { database_key_deleted: await sealKeys.forgetDatabaseKey() };
    },
  },
  'privacy report': {
    usage:
      'privacy report                                      what visits and people leave in the database, as /privacy and /admin/data tell',
    run: ({ privacy }) => privacy.report(),
  },
  import: importCommand,
  'export-static': exportStaticCommand,
  migrate: {
    usage: 'migrate                                             apply pending database migrations',
    async run({ migrate }) {
      return { applied: await migrate() };
    },
  },
};

export function usage(): string {
  return [
    'Usage: linkpix <command> [flags]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'Configuration comes from the environment (and ./.env), as for the server: DATABASE_URL, …',
    '',
    'Shortening and managing links over the API, from anywhere: login, logout, shorten, links, stats, qr',
    '(`linkpix login --help`; packages/cli/README.md).',
  ].join('\n');
}
