import { run } from './run.js';

/** `linkpix` for people, in this process: its arguments, environment and standard streams. */
export async function main(): Promise<void> {
  process.exitCode = await run(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    input: process.stdin,
    errors: process.stderr,
  });
}
