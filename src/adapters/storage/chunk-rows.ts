/**
 * Rows a long read hands over at a time (SQLite's reader thread, PostgreSQL's cursor): a chunk is
 * one short piece of work for whoever reads it (docs/design/event-loop.md).
 */
export const CHUNK_ROWS = 1000;
