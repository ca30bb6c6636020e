import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';

/** A CSV row by its header's names (trimmed), or why it could not be read. */
export type CsvRecord = { line: number; cells: Record<string, string> } | { line: number; unreadable: string };

/**
 * The most characters one CSV row may hold: far more than any link (its URLs and targeting lists
 * at their limits), and what bounds the parser's buffer whatever the file (a one-line file of
 * fifty megabytes is a row too long, not fifty megabytes held).
 */
const CSV_ROW_MAX = 1024 * 1024;

/**
 * The rows of a CSV under its header row, streamed (csv-parse). A malformed row (an unclosed quote,
 * more or fewer cells than the header, longer than CSV_ROW_MAX) is handed on as unreadable and
 * the rest still read.
 */
export async function* csvRecords(source: Readable): AsyncGenerator<CsvRecord> {
  const skipped: CsvRecord[] = [];
  // csv-parse stops parsing at a row past max_record_size: the rest of the file is not read.
  let tooLong = false;
  const parser = source.pipe(
    parse({
      bom: true,
      info: true,
      skip_empty_lines: true,
      max_record_size: CSV_ROW_MAX,
      skip_records_with_error: true,
      on_skip: (error) => {
        if (tooLong) return undefined;
        tooLong = error?.code === 'CSV_MAX_RECORD_SIZE';
        const rest = tooLong ? ' The rest of the file was not read.' : '';
        skipped.push({
          line: Number(error?.lines ?? 0),
          unreadable: `Malformed CSV row: ${error?.message ?? 'unreadable'}.${rest}`,
        });
        if (tooLong) source.destroy();
        return undefined;
      },
    }),
  );
  source.on('error', (error) => parser.destroy(error));
  source.on('close', () => {
    if (tooLong) parser.end();
  });
  let header: string[] | null = null;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    yield* skipped.splice(0);
    if (tooLong) break;
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
