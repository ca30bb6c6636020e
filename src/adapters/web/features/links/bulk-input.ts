/**
 * What a bulk submit lists: one URL per line of a text, or the rows of a CSV file with a header
 * (`url[,alias,title]`). Pure: the page turns the problems into messages.
 */

/** The most lines one submit may hold. */
export const BULK_MAX_LINES = 1000;

/** One line to shorten; `line` is its line number in what was sent (1-based; a CSV's header is line 1). */
export interface BulkEntry {
  line: number;
  url: string;
  alias?: string;
  title?: string;
}

export type CsvProblem =
  { kind: 'noUrlColumn' } | { kind: 'unknownColumns'; names: string[] } | { kind: 'badCsv'; line: number };

const COLUMNS = ['url', 'alias', 'title'] as const;
type Column = (typeof COLUMNS)[number];

/** The non-blank lines of a text, trimmed, with their line numbers. */
export function textEntries(text: string): BulkEntry[] {
  const out: BulkEntry[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const url = raw.trim();
    if (url !== '') out.push({ line: i + 1, url });
  });
  return out;
}

/** The rows of a CSV file as entries, or what is wrong with the file. */
export function csvEntries(text: string): { entries: BulkEntry[] } | { problem: CsvProblem } {
  const parsed = parseCsv(text.replace(/^\uFEFF/, ''));
  if ('badLine' in parsed) return { problem: { kind: 'badCsv', line: parsed.badLine } };
  const [header, ...rows] = parsed.rows;
  const names = header?.cells.map((c) => c.trim().toLowerCase()) ?? [];
  if (!names.includes('url')) return { problem: { kind: 'noUrlColumn' } };
  const unknown = names.filter((n) => n !== '' && !(COLUMNS as readonly string[]).includes(n));
  if (unknown.length > 0) return { problem: { kind: 'unknownColumns', names: unknown } };
  const at = (column: Column) => names.indexOf(column);
  const entries: BulkEntry[] = [];
  for (const row of rows) {
    const cell = (column: Column) => (at(column) === -1 ? '' : (row.cells[at(column)] ?? '').trim());
    if (row.cells.every((c) => c.trim() === '')) continue;
    const entry: BulkEntry = { line: row.line, url: cell('url') };
    if (cell('alias') !== '') entry.alias = cell('alias');
    if (cell('title') !== '') entry.title = cell('title');
    entries.push(entry);
  }
  return { entries };
}

interface CsvRow {
  /** The line the record starts on. */
  line: number;
  cells: string[];
}

/**
 * RFC 4180: fields separated by commas (or semicolons, when the header has no comma but one:
 * spreadsheets in some locales write those), double-quoted fields may hold separators, line
 * breaks and doubled quotes. A quote left open, or text right after a closing quote, is an error
 * on the line it is on.
 */
export function parseCsv(text: string): { rows: CsvRow[] } | { badLine: number } {
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  const separator = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let rowLine = 1;
  let i = 0;
  const endRow = () => {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && cell === '') {
      const opened = line;
      i++;
      for (;;) {
        if (i >= text.length) return { badLine: opened };
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n' || (q === '\r' && text[i + 1] !== '\n')) line++;
        cell += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== separator && next !== '\r' && next !== '\n') return { badLine: line };
      if (next === separator) {
        cells.push(cell);
        cell = '';
        i++;
        if (i >= text.length) endRow();
      }
      continue;
    }
    if (c === separator) {
      cells.push(cell);
      cell = '';
      i++;
      if (i >= text.length) endRow();
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRow();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      rowLine = line;
      continue;
    }
    cell += c;
    i++;
  }
  if (cell !== '' || cells.length > 0) endRow();
  return { rows };
}
