import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ForbiddenError, NotFoundError, UnavailableError, ValidationError } from '../core/shared/errors.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContainer } from './container.ts';
import { testTuning } from './tuning.ts';
import { COMMANDS, UsageError, usage, type Flags } from '../adapters/cli/commands.ts';
import { ImportBusyError } from '../adapters/import/import-slots.ts';
import { ImportLeaseLostError } from '../adapters/import/import-ticket.ts';
import { SealKeyError } from '../adapters/secrets/seal-keys.ts';
import { SqliteFileError } from '../adapters/storage/sqlite-file-error.ts';
import { SqlStaticLinkSource } from '../adapters/storage/stores/static-link-source.ts';

// The `linkpix` command's composition root (bin/linkpix.js): it reads the configuration and wires a
// container like main.ts does, then hands the parsed command to adapters/cli/commands.ts.

/** Where the command reads its input and writes its answer and its complaints. */
export interface CliIo {
  input: NodeJS.ReadableStream;
  out: (text: string) => void;
  /** Standard output as it is, without a line end (a long answer written as it is read); absent: through out. */
  write?: (text: string) => void;
  err: (text: string) => void;
  /** Where a long command draws its progress line: a terminal, or nowhere. */
  progress: NodeJS.WritableStream | null;
}

const PROCESS_IO: CliIo = {
  input: process.stdin,
  out: (text) => console.log(text),
  write: (text) => process.stdout.write(text),
  err: (text) => console.error(text),
  progress: process.stderr.isTTY ? process.stderr : null,
};

/** The operator's tool: same configuration and database as the server. Exit 0 ok, 1 refused, 2 misuse. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: CliIo = PROCESS_IO,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        email: { type: 'string' },
        workspace: { type: 'string' },
        name: { type: 'string' },
        timezone: { type: 'string' },
        key: { type: 'string' },
        id: { type: 'string' },
        off: { type: 'boolean' },
        format: { type: 'string' },
        'dry-run': { type: 'boolean' },
        strict: { type: 'boolean' },
        'on-conflict': { type: 'string' },
        'key-id': { type: 'string' },
        yes: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${usage()}`);
    return 2;
  }
  // The longest run of leading words that names a command; what follows are its arguments.
  const words = parsed.positionals;
  let taken = words.length;
  while (taken > 0 && !COMMANDS[words.slice(0, taken).join(' ')]) taken--;
  const name = taken > 0 ? words.slice(0, taken).join(' ') : words.join(' ');
  const args = words.slice(taken);
  const command = COMMANDS[name];
  if (parsed.values.help || name === '' || name === 'help') {
    io.out(usage());
    return name === '' && !parsed.values.help ? 2 : 0;
  }
  if (!command || (args.length > 0 && !command.takesArgument)) {
    io.err(`Unknown command "${words.join(' ')}".\n\n${usage()}`);
    return 2;
  }
  let container;
  try {
    const config = loadConfig(env);
    container = createContainer(config, { titles: null, tuning: testTuning(env) });
    if (name !== 'migrate') await container.migrate();
    const flags: Flags = Object.fromEntries(
      Object.entries(parsed.values).map(([k, v]) => [k, v === true ? 'true' : v === false ? undefined : v]),
    );
    const result = await command.run(
      {
        ...container,
        readLine: () => firstLine(io.input),
        importMaxBytes: container.tuning.IMPORT_MAX_BYTES,
        progress: io.progress,
        staticLinks: new SqlStaticLinkSource(container.storage.db),
        appUrl: config.APP_URL,
        redirectStatus: Number(config.REDIRECT_STATUS),
        write: io.write ?? ((text) => io.out(text.replace(/\n$/, ''))),
        warn: io.err,
      },
      flags,
      args,
    );
    // A command that wrote its answer as it went (export-static) returns nothing more to print.
    if (result !== undefined) io.out(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    return report(error, io.err);
  } finally {
    await container?.close();
  }
}

/** The first line of the stream ('' when it ends first), without its line ending. */
function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input, terminal: false });
    let done = false;
    const finish = (line: string) => {
      if (done) return;
      done = true;
      lines.close();
      resolve(line);
    };
    lines.once('line', finish);
    lines.once('close', () => finish(''));
    input.once('error', reject);
  });
}

function report(error: unknown, err: (text: string) => void): number {
  if (error instanceof UsageError) {
    err(`${error.message}\n\n${usage()}`);
    return 2;
  }
  if (error instanceof ConfigError || error instanceof SealKeyError || error instanceof SqliteFileError)
    err(error.message);
  else if (error instanceof ValidationError) {
    for (const [field, list] of Object.entries(error.fields)) err(`${field}: ${list.join(' ')}`);
  } else if (error instanceof NotFoundError) err(`No such ${error.resource}.`);
  else if (error instanceof ImportBusyError || error instanceof ImportLeaseLostError || error instanceof ForbiddenError)
    err(error.message);
  else if (error instanceof UnavailableError)
    err(`The ${error.dependency} is unavailable: ${(error.cause as Error | undefined)?.message ?? 'no answer'}.`);
  else err(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 1;
}

export async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  process.exitCode = await runCli(process.argv.slice(2), process.env);
}
