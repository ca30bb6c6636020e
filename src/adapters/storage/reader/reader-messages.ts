/** What the reader thread is started with. */
export interface ReaderData {
  /** The SQLite file, opened read-only by the thread. */
  path: string;
  /** Rows a message carries at most: each message is read by the main thread in one go. */
  chunkRows: number;
}

/** Main thread → reader: run a statement; send the next chunk of its rows; forget the rest of them; stop. */
export type ReaderRequest =
  | { kind: 'query'; id: number; sql: string; parameters: readonly unknown[] }
  | { kind: 'more'; id: number }
  | { kind: 'drop'; id: number }
  | { kind: 'close' };

/** Reader → main thread: a chunk of a statement's rows (`done`: the last), or its failure. */
export type ReaderReply =
  { id: number; rows: unknown[]; done: boolean } | { id: number; error: { message: string; code?: string } };
