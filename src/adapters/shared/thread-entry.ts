/**
 * Where a worker thread starts, beside the module `from` that starts it: compiled (dist/), its
 * JavaScript; from the sources (tests, tsx), a small .mjs that registers tsx first, since a
 * worker does not inherit module hooks on Node 20.
 */
export function threadEntry(name: string, from: string): URL {
  return new URL(`./${name}.${from.endsWith('.ts') ? 'mjs' : 'js'}`, from);
}

/** The main thread's flags a thread takes: CPU profiling, if on; not the loader's (the .mjs registers its own). */
export function threadExecArgv(): string[] {
  return process.execArgv.filter((arg) => arg.startsWith('--cpu-prof'));
}
