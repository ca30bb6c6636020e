import type { Readable } from 'node:stream';
import type { ImportRow } from '../../core/links/import/import-row.ts';
import { CellError } from './cells.ts';
import { csvRecords } from './csv-records.ts';
import { sqlDumpRows } from './sql-dump.ts';

/** The file being imported, read as a stream (CSV) or whole (JSON, SQL: their size is checked first). */
export interface ImportSource {
  stream(): Readable;
  text(): Promise<string>;
}

/** What the start of a file shows: its first few kilobytes and, for a CSV, its header's names. */
export interface FileHead {
  text: string;
  header: string[];
}

export interface ImportFormat {
  name: string;
  /** Whether a file that starts so is in this format (auto-detection, in the order of formats.ts). */
  detect(head: FileHead): boolean;
  rows(source: ImportSource): AsyncIterable<ImportRow>;
}

/** Maps each cell row to a link, turning a bad cell into a reported row. */
function mapped(line: number, map: () => Omit<ImportRow, 'line'>): ImportRow {
  try {
    return { line, ...map() };
  } catch (error) {
    if (error instanceof CellError) return { line, input: {}, unreadable: error.message };
    throw error;
  }
}

/** A CSV format: its rows by header name, each mapped. */
export async function* csvRows(source: ImportSource, map: (cells: Record<string, string>) => Omit<ImportRow, 'line'>): AsyncGenerator<ImportRow> {
  for await (const r of csvRecords(source.stream())) {
    if ('unreadable' in r) yield { line: r.line, input: {}, unreadable: r.unreadable };
    else yield mapped(r.line, () => map(r.cells));
  }
}

/** A SQL dump format: the table's rows, each mapped. */
export async function* sqlRows(
  source: ImportSource,
  table: string,
  columns: readonly string[],
  map: (cells: Record<string, string | null>) => Omit<ImportRow, 'line'>,
): AsyncGenerator<ImportRow> {
  const text = await source.text();
  try {
    for (const r of sqlDumpRows(text, table, columns)) {
      if ('unreadable' in r) yield { line: r.line, input: {}, unreadable: r.unreadable };
      else yield mapped(r.line, () => map(r.cells));
    }
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    yield { line: 0, input: {}, unreadable: `Malformed SQL dump: ${error.message}.` };
  }
}

/** A JSON format: the document's entries, each mapped; a document that does not parse is one reported row. */
export async function* jsonRows(
  source: ImportSource,
  entries: (doc: unknown) => unknown[],
  map: (entry: Record<string, unknown>) => Omit<ImportRow, 'line'>,
): AsyncGenerator<ImportRow> {
  let doc: unknown;
  try {
    doc = JSON.parse(await source.text());
  } catch (error) {
    yield { line: 0, input: {}, unreadable: `Malformed JSON: ${(error as Error).message}` };
    return;
  }
  for (const [i, entry] of entries(doc).entries()) {
    if (typeof entry !== 'object' || entry === null) yield { line: i + 1, input: {}, unreadable: 'Not a JSON object.' };
    else yield mapped(i + 1, () => map(entry as Record<string, unknown>));
  }
}
