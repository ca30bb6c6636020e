import { parseArgs } from 'node:util';
import { LinkpixError, LinkpixValidationError } from '@linkpix/sdk';
import type { Command } from './command.js';
import { COMMANDS } from './commands/index.js';
import { AuthError, EXIT, NotFoundError, UsageError } from './exit-codes.js';
import type { Io } from './output.js';
import { clientFor } from './session.js';

const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export function usage(): string {
  return [
    'Usage: linkpix <command> [flags] [--json]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).flatMap((c) => [`  ${c.synopsis}`, `      ${c.summary}`]),
    '',
    '--json prints the API’s records; otherwise a readable table.',
    'LINKPIX_URL and LINKPIX_API_KEY in the environment stand in for a login.',
    'Exit codes: 0 done, 1 the API refused or could not be reached, 2 a wrong command line,',
    '3 not logged in or the key refused.',
  ].join('\n');
}

/** The command the leading words name ("links list" before "links"), and the words after them. */
function commandOf(argv: string[]): { name: string; command: Command | undefined; rest: string[] } {
  for (const taken of [2, 1]) {
    const name = argv.slice(0, taken).join(' ');
    if (COMMANDS[name]) return { name, command: COMMANDS[name], rest: argv.slice(taken) };
  }
  return { name: argv[0] ?? '', command: undefined, rest: argv.slice(1) };
}

/** Runs one command line; the exit code. */
export async function run(argv: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  const { name, command, rest } = commandOf(argv);
  if (!command) {
    if (name === '' || name === 'help' || name === '--help' || name === '-h') {
      io.out(usage());
      return name === '' ? EXIT.usage : EXIT.ok;
    }
    const group = Object.keys(COMMANDS).filter((words) => words.startsWith(`${name} `));
    const what = group.length > 0 ? `"${name}" needs one of: ${group.join(', ')}` : `Unknown command "${name}"`;
    io.err(`${what}.\n\n${usage()}`);
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...COMMON, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.out(`Usage: linkpix ${command.synopsis}\n  ${command.summary}`);
      return EXIT.ok;
    }
    if (positionals.length !== command.args.length)
      throw new UsageError(`${name} takes ${command.args.length ? command.args.join(' ') : 'no arguments'}`);
    await command.run({ flags: values, args: positionals, env, io, client: () => clientFor(env) });
    return EXIT.ok;
  } catch (error) {
    return failure(error, name, io);
  }
}

function failure(error: unknown, name: string, io: Io): number {
  // parseArgs's own errors (an unknown flag, a flag without its value) are usage errors too.
  const code = (error as { code?: unknown }).code;
  if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
    io.err(`${(error as Error).message}\n\nUsage: linkpix ${COMMANDS[name]?.synopsis ?? ''}`);
    return EXIT.usage;
  }
  if (error instanceof AuthError) {
    io.err(error.message);
    return EXIT.auth;
  }
  if (error instanceof NotFoundError) {
    io.err(error.message);
    return EXIT.api;
  }
  if (error instanceof LinkpixValidationError) {
    for (const [field, messages] of Object.entries(error.fields)) io.err(`${field}: ${messages.join(' ')}`);
    return EXIT.api;
  }
  if (error instanceof LinkpixError) {
    io.err(error.status === 401 ? 'The server refused the key: run `linkpix login` again.' : error.message);
    return error.status === 401 ? EXIT.auth : EXIT.api;
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    io.err(`The server could not be reached: ${(error.cause as Error | undefined)?.message ?? error.message}`);
    return EXIT.api;
  }
  throw error;
}
