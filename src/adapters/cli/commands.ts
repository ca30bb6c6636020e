import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import type { ApiKey } from '../../core/accounts/account.ts';

export interface CliDeps {
  accounts: AccountsService;
  migrate(): Promise<string[]>;
}

export type Flags = Record<string, string | undefined>;

export class UsageError extends Error {}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const keyJson = (k: ApiKey) => ({
  id: k.id, name: k.name, prefix: k.prefix, created_at: iso(k.createdAt), revoked_at: iso(k.revokedAt),
});

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** Each command returns the JSON object it prints; the shell prints and exits. */
export const COMMANDS: Record<string, { usage: string; run(deps: CliDeps, flags: Flags): Promise<unknown> }> = {
  'users create': {
    usage: 'users create --email E [--name N] [--timezone TZ]   create an account and its first API key',
    async run({ accounts }, flags) {
      const { account, apiKey, key } = await accounts.createAccount({
        email: required(flags, 'email'), name: flags.name, timezone: flags.timezone,
      });
      return { id: account.id, email: account.email, name: account.name, timezone: account.timezone, api_key: apiKey, key_id: key.id };
    },
  },
  'keys create': {
    usage: 'keys create --email E [--name N]                    add an API key to an account (shown once)',
    async run({ accounts }, flags) {
      const { account, key, apiKey } = await accounts.createKey(required(flags, 'email'), flags.name ?? null);
      return { id: account.id, email: account.email, api_key: apiKey, key_id: key.id };
    },
  },
  'keys list': {
    usage: 'keys list --email E                                 list an account\'s keys (never the secrets)',
    async run({ accounts }, flags) {
      return { keys: (await accounts.listKeys(required(flags, 'email'))).map(keyJson) };
    },
  },
  'keys revoke': {
    usage: 'keys revoke (--key lpx_… | --email E --id N)        revoke one key',
    async run({ accounts }, flags) {
      if (flags.key) {
        const { account, key } = await accounts.revokeKeyByValue(flags.key);
        return { email: account.email, key_id: key.id, revoked: true };
      }
      const id = Number(required(flags, 'id'));
      if (!Number.isInteger(id) || id < 1) throw new UsageError('--id must be a key id (see keys list)');
      await accounts.revokeKey(required(flags, 'email'), id);
      return { email: flags.email, key_id: id, revoked: true };
    },
  },
  migrate: {
    usage: 'migrate                                             apply pending database migrations',
    async run({ migrate }) {
      return { applied: await migrate() };
    },
  },
};

export function usage(): string {
  return ['Usage: linkpix <command> [flags]', '', 'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`), '',
    'Configuration comes from the environment (and ./.env), as for the server: DATABASE_URL, …'].join('\n');
}
