import { Readable } from 'node:stream';

/**
 * A streamed body whose first piece is read before the answer starts: a database that cannot
 * answer is then still a 503 (the error handler), not a 200 cut short. Later failures can only
 * cut the body short, which a client sees as a truncated file.
 */
export async function startedStream(pieces: AsyncGenerator<string>): Promise<Readable> {
  const first = await pieces.next();
  async function* rest(): AsyncGenerator<string> {
    if (first.done) return;
    yield first.value;
    yield* pieces;
  }
  return Readable.from(rest());
}
