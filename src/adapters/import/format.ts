import { JSONParser } from '@streamparser/json';
import type { Readable } from 'node:stream';
import type { ImportRow } from '../../core/links/import/import-row.ts';
import { CellError } from './cells.ts';
import { csvRecords } from './csv-records.ts';
import { sqlDumpRows } from './sql-dump.ts';

/** The file being imported, read as a stream (CSV, JSON) or whole (SQL dumps: their size is checked first). */
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
  rows(source: ImportSource, head: FileHead): AsyncIterable<ImportRow>;
  /**
   * A CSV format's header names by the field they fill, as the product spells them (matched as
   * cells.ts's headerKey reduces them), `alias` among them: the report says which the file has,
   * and a missing alias column is told (or refuses a strict import) before any row is read.
   */
  columns?: Readonly<Record<string, readonly string[]>>;
  /**
   * Other header names a CSV format reads that fill no field of `columns` (a password cell whose
   * presence disables the link, a domain id that earns a note): with `columns`, every column
   * not named here is the report's `ignored_columns`.
   */
  alsoReads?: readonly string[];
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
export async function* csvRows(
  source: ImportSource,
  map: (cells: Record<string, string>) => Omit<ImportRow, 'line'>,
): AsyncGenerator<ImportRow> {
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

/**
 * A JSON format: the document's entries at `path` (a @streamparser/json path such as
 * `$.links.*`), each mapped as it is parsed, so that only the entry under way is held. A
 * document that stops parsing is reported as one row after the entries before the fault.
 */
export async function* jsonRows(
  source: ImportSource,
  path: string,
  map: (entry: Record<string, unknown>) => Omit<ImportRow, 'line'>,
): AsyncGenerator<ImportRow> {
  const parser = new JSONParser({ paths: [path], keepStack: false });
  const parsed: unknown[] = [];
  parser.onValue = ({ value }) => void parsed.push(value);
  let line = 0;
  let fault: string | null = null;
  const stream = source.stream() as AsyncIterable<Buffer>;
  for await (const chunk of stream) {
    try {
      parser.write(chunk);
    } catch (error) {
      fault = (error as Error).message;
    }
    for (const entry of parsed.splice(0)) {
      line++;
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
        yield { line, input: {}, unreadable: 'Not a JSON object.' };
      else yield mapped(line, () => map(entry as Record<string, unknown>));
    }
    if (fault !== null) break;
  }
  if (fault === null && !parser.isEnded) {
    try {
      parser.end();
    } catch (error) {
      fault = (error as Error).message;
    }
  }
  if (fault !== null) yield { line: line + 1, input: {}, unreadable: `Malformed JSON: ${fault}` };
}
