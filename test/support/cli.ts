import { Readable } from 'node:stream';
import { runCli } from '../../src/app/cli.ts';
import type { Ran } from './processes.ts';

/**
 * Runs a `linkpix` command in this process, as bin/linkpix.js would in its own: the same entry
 * (runCli), configuration from `env` alone, `input` as its standard input. What it prints comes
 * back as one would read it from the process. test/e2e/cli.test.ts runs the real binary.
 */
export async function runCliHere(args: string[], env: Record<string, string>, input = ''): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, {
    input: Readable.from(input === '' ? [] : [input]),
    out: (text) => out.push(`${text}\n`),
    err: (text) => err.push(`${text}\n`),
    progress: null,
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}
