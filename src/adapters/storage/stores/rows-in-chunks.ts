import { CompiledQuery } from 'kysely';
import { CHUNK_ROWS } from '../chunk-rows.ts';
import type { Storage } from '../connect.ts';

/** PostgreSQL's memory for the sorts and hashes of one chunked read: its groups of up to FILTERED_ROWS_MAX rows. */
const WORK_MEM = '64MB';

interface ChunkableQuery<O> {
  compile(): CompiledQuery<O>;
  execute(): Promise<O[]>;
  stream(chunkSize?: number): AsyncIterableIterator<O>;
}

/**
 * A query's rows a chunk at a time (docs/design/event-loop.md), so that this thread never
 * receives, parses or holds a long result in one go: from SQLite's reader thread, which sends the
 * next chunk once this one is taken; from PostgreSQL through a cursor, CHUNK_ROWS a fetch (a
 * whole result would be parsed here as fast as the socket delivers it); an in-memory SQLite
 * database, which has no other thread, read whole and cut.
 */
export function rowsInChunks<O>(
  storage: Pick<Storage, 'db' | 'reads' | 'engine'>,
  query: ChunkableQuery<O>,
): AsyncGenerator<O[]> {
  if (storage.engine === 'postgres') return fetchedInChunks(storage, query);
  if (storage.reads !== storage.db) return streamedInChunks(query);
  return cutInChunks(query);
}

async function* streamedInChunks<O>(query: ChunkableQuery<O>): AsyncGenerator<O[]> {
  let chunk: O[] = [];
  for await (const row of query.stream(CHUNK_ROWS)) {
    chunk.push(row);
    if (chunk.length < CHUNK_ROWS) continue;
    yield chunk;
    chunk = [];
  }
  if (chunk.length > 0) yield chunk;
}

async function* fetchedInChunks<O>(storage: Pick<Storage, 'reads'>, query: ChunkableQuery<O>): AsyncGenerator<O[]> {
  const { sql, parameters } = query.compile();
  const trx = await storage.reads.startTransaction().setAccessMode('read only').execute();
  let finished = false;
  try {
    // The planner is told the whole result is read, as for the query itself, not its first rows;
    // a result of up to the bounded reads' rows is grouped and sorted in memory, not on disk.
    await trx.executeQuery(CompiledQuery.raw('set local cursor_tuple_fraction = 1'));
    await trx.executeQuery(CompiledQuery.raw(`set local work_mem = '${WORK_MEM}'`));
    await trx.executeQuery(CompiledQuery.raw(`declare linkpix_rows no scroll cursor for ${sql}`, [...parameters]));
    for (;;) {
      const { rows } = await trx.executeQuery<O>(CompiledQuery.raw(`fetch ${CHUNK_ROWS} from linkpix_rows`));
      if (rows.length > 0) yield rows;
      if (rows.length < CHUNK_ROWS) break;
    }
    finished = true;
  } finally {
    // A reader that stopped early, or a failure: nothing was written either way.
    await (finished ? trx.commit() : trx.rollback()).execute();
  }
}

async function* cutInChunks<O>(query: ChunkableQuery<O>): AsyncGenerator<O[]> {
  const rows = await query.execute();
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) yield rows.slice(i, i + CHUNK_ROWS);
}
