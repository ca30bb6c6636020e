import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';

/** A CSV row by its header's names (trimmed), or why it could not be read. */
export type CsvRecord = { line: number; cells: Record<string, string> } | { line: number; unreadable: string };

/**
 * The rows of a CSV under its header row, streamed (csv-parse). A malformed row (an unclosed quote,
 * more or fewer cells than the header) is handed on as unreadable and the rest still read.
 */
export async function* csvRecords(source: Readable): AsyncGenerator<CsvRecord> {
  const skipped: CsvRecord[] = [];
  const parser = source.pipe(
    parse({
      bom: true,
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        skipped.push({ line: Number(error?.lines ?? 0), unreadable: `Malformed CSV row: ${error?.message ?? 'unreadable'}` });
        return undefined;
      },
    }),
  );
  source.on('error', (error) => parser.destroy(error));
  let header: string[] | null = null;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    yield* skipped.splice(0);
    if (header === null) {
      header = record.map((name) => name.trim());
      continue;
    }
    const cells: Record<string, string> = {};
    for (const [i, name] of header.entries()) cells[name] = record[i] ?? '';
    yield { line: info.lines, cells };
  }
  yield* skipped.splice(0);
}
