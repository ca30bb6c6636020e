import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { AuthError } from './exit-codes.js';

/** What `linkpix login` keeps: the server and the key for it. */
export interface Login {
  url: string;
  api_key: string;
}

type Env = Record<string, string | undefined>;

/** $XDG_CONFIG_HOME/linkpix/config.json, else ~/.config/linkpix/config.json. */
export function configFile(env: Env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'linkpix', 'config.json');
}

export function readLogin(env: Env): Login | null {
  const file = configFile(env);
  if (!existsSync(file)) return null;
  let login: Partial<Login>;
  try {
    login = JSON.parse(readFileSync(file, 'utf8')) as Partial<Login>;
  } catch (error) {
    throw new AuthError(`${file} cannot be read (${(error as Error).message}): run \`linkpix login\` again.`);
  }
  if (typeof login.url !== 'string' || typeof login.api_key !== 'string')
    throw new AuthError(`${file} holds no login: run \`linkpix login\` again.`);
  return { url: login.url, api_key: login.api_key };
}

/** Writes the login where only its owner can read it: the folder 0700, the file 0600, replaced whole. */
export function saveLogin(env: Env, login: Login): string {
  const file = configFile(env);
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(next, 0o600);
  renameSync(next, file);
  return file;
}

/** Removes the login; whether there was one. */
export function forgetLogin(env: Env): boolean {
  const file = configFile(env);
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}
