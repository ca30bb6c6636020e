type Cell = string | number | null;

// A text cell a spreadsheet would run as a formula, after any apostrophes already there.
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;

/**
 * CSV as RFC 4180 describes it: CRLF line ends, fields quoted when they hold a comma, a quote
 * or a line break, quotes doubled. Text that a spreadsheet would run as a formula (= + - @,
 * tab, carriage return first) is prefixed with an apostrophe, as OWASP advises; text that
 * already starts with apostrophes before one of those gets one more, so the prefix can always
 * be taken off again (csvText) and an export reads back unchanged.
 */
export function csvField(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_LIKE.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The text csvField was given, from a parsed (unquoted) cell: the formula guard's apostrophe taken off. */
export function csvText(cell: string): string {
  return FORMULA_LIKE.test(cell) && cell.startsWith("'") ? cell.slice(1) : cell;
}

const csvRow = (row: ReadonlyArray<Cell>): string => row.map(csvField).join(',') + '\r\n';

export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<Cell>>): string {
  return [header, ...rows].map(csvRow).join('');
}

/**
 * A CSV a chunk of records at a time, each chunk's rows as one string. The header goes out with
 * the first chunk, so that nothing is written before the first read has succeeded.
 */
export async function* csvChunks<T>(
  header: readonly string[],
  chunks: AsyncIterable<readonly T[]>,
  row: (item: T) => ReadonlyArray<Cell>,
): AsyncGenerator<string> {
  let head = csvRow(header);
  for await (const chunk of chunks) {
    yield head + chunk.map((item) => csvRow(row(item))).join('');
    head = '';
  }
  if (head) yield head;
}
