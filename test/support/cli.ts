import { after, before, describe } from 'node:test';
import { Readable } from 'node:stream';
import { runCli } from '../../src/app/cli.ts';
import { ENGINES, startHarness, type Harness } from './harness.ts';
import { cliDatabase, type Ran } from './processes.ts';

/**
 * Runs a `linkpix` command in this process, as bin/linkpix.js would in its own: the same entry
 * (runCli), configuration from `env` alone, `input` as its standard input. What it prints comes
 * back as one would read it from the process. test/e2e/cli.test.ts runs the real binary.
 */
async function runCliHere(args: string[], env: Record<string, string>, input = ''): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, {
    input: Readable.from(input === '' ? [] : [input]),
    out: (text) => out.push(`${text}\n`),
    write: (text) => out.push(text),
    err: (text) => err.push(`${text}\n`),
    progress: null,
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

export interface CliSuite {
  /** Runs a command on the suite's database, with nothing on its standard input. */
  cli: (...args: string[]) => Promise<Ran>;
  /** Runs a command on the suite's database with `input` on its standard input. */
  cliWithInput: (input: string, ...args: string[]) => Promise<Ran>;
  /** A server on the CLI's own database (not a fresh one), to prove they share it. */
  startServer: () => Promise<Harness>;
}

/** Runs `suite` once per engine, on a database of its own (cliDatabase) that the CLI runs with `env` over it. */
export function onEachEngineWithCli(
  title: string,
  suite: (s: CliSuite) => void,
  env: Record<string, string> = {},
): void {
  for (const engine of ENGINES) {
    describe(`${title} [${engine.name}]`, { skip: engine.skip ?? false }, () => {
      let database: Awaited<ReturnType<typeof cliDatabase>> | undefined;
      const envOf = () => {
        if (!database) throw new Error('the suite has not started: run commands inside a test or hook');
        return { ...database.env, ...env };
      };
      before(async () => {
        database = await cliDatabase(engine.name);
      });
      after(() => database?.cleanup());
      suite({
        cli: (...args) => runCliHere(args, envOf()),
        cliWithInput: (input, ...args) => runCliHere(args, envOf(), input),
        startServer: () =>
          startHarness('sqlite', {
            env: { DATABASE_URL: envOf().DATABASE_URL! },
            overrides: { tuning: { LINK_CACHE_TTL_MS: 1000 } },
          }),
      });
    });
  }
}
