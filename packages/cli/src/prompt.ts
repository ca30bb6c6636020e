import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** Asks questions on standard error and reads the answers from standard input, a line each. */
export interface Prompt {
  ask(question: string, options?: { hidden?: boolean }): Promise<string>;
  close(): void;
}

/**
 * One reader for every question, so that piped lines are not lost between them. A hidden
 * answer (the key) is not echoed on a terminal.
 */
export function prompt(input: NodeJS.ReadableStream & { isTTY?: boolean }, err: NodeJS.WritableStream): Prompt {
  let muted = false;
  const echo = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) err.write(chunk as Buffer);
      done();
    },
  });
  const terminal = input.isTTY === true;
  const reader = createInterface({ input, output: echo, terminal });
  const lines = reader[Symbol.asyncIterator]();
  return {
    async ask(question, options = {}) {
      err.write(question);
      muted = options.hidden === true && terminal;
      const next = await lines.next();
      if (muted) err.write('\n');
      muted = false;
      return next.done ? '' : String(next.value).trim();
    },
    close: () => reader.close(),
  };
}
