import type { ParseArgsConfig } from 'node:util';
import type { Linkpix } from '@linkpix/sdk';
import { UsageError } from './exit-codes.js';
import type { Io } from './output.js';

export type Flags = Record<string, string | boolean | string[] | undefined>;

/** What a command is given: its flags and arguments, where to write, and the client once asked for. */
export interface Context {
  flags: Flags;
  args: string[];
  env: Record<string, string | undefined>;
  io: Io;
  /** The SDK with the login's (or the environment's) server and key. */
  client(): Linkpix;
}

export interface Command {
  /** The command's words, arguments and flags, for the usage text. */
  synopsis: string;
  /** What it does, in a few words. */
  summary: string;
  /** Its flags beyond --json and --help. */
  options: NonNullable<ParseArgsConfig['options']>;
  /** The names of its positional arguments, each required. */
  args: string[];
  run(context: Context): Promise<void>;
}

/** A flag's text, or undefined. */
export function text(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

/** A positive integer the command line gave (an id, a page), or a usage error naming it. */
export function whole(value: string, what: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2 ** 31 - 1)
    throw new UsageError(`${what} must be a positive whole number, not "${value}"`);
  return Number(value);
}

export function optionalWhole(flags: Flags, name: string): number | undefined {
  const value = text(flags, name);
  return value === undefined ? undefined : whole(value, `--${name}`);
}

/** The repeated --tag flags as a list, or undefined when none was given. */
export function tags(flags: Flags): string[] | undefined {
  const value = flags.tag;
  return Array.isArray(value) ? value : undefined;
}
