import { parse } from 'csv-parse/sync';
import { bitlyCsv } from './bitly.ts';
import { headerKey } from './cells.ts';
import type { FileHead, ImportFormat } from './format.ts';
import { genericCsv } from './generic-csv.ts';
import { kuttJson } from './kutt.ts';
import { linkpixCsv, linkpixJson } from './linkpix.ts';
import { phpshortCsv, phpshortSql } from './phpshort.ts';
import { shlinkCsv } from './shlink.ts';
import { yourlsCsv, yourlsSql } from './yourls.ts';

/** Every format, in the order auto-detection tries them: the most particular first, the generic CSV last. */
const IMPORT_FORMATS: readonly ImportFormat[] = [
  linkpixJson,
  kuttJson,
  yourlsSql,
  phpshortSql,
  linkpixCsv,
  phpshortCsv,
  yourlsCsv,
  shlinkCsv,
  bitlyCsv,
  genericCsv,
];

export const IMPORT_FORMAT_NAMES = IMPORT_FORMATS.map((f) => f.name);

/** How much of a file detection reads. */
export const HEAD_BYTES = 8192;

/** The head of a file as detection sees it: its text and, if its first line reads as CSV, the names in it. */
export function fileHead(start: Buffer): FileHead {
  const text = start.toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  let header: string[] = [];
  try {
    const rows: string[][] = parse(firstLine, { relax_quotes: true });
    header = (rows[0] ?? []).map((h) => h.trim());
  } catch {
    // not a CSV: the JSON and SQL formats decide by the text
  }
  return { text, header };
}

/** The named format, or the first whose detect accepts the head; null when none does. */
export function chooseFormat(head: FileHead, name?: string): ImportFormat | null {
  if (name !== undefined) return IMPORT_FORMATS.find((f) => f.name === name) ?? null;
  return IMPORT_FORMATS.find((f) => f.detect(head)) ?? null;
}

/** What a CSV format found in the file's header: each field's column (null: none), and what the report should warn of. */
export interface ColumnsFound {
  columns: Record<string, string | null>;
  /** The format reads aliases from a column the file lacks: every row would get a random one. */
  aliasMissing: string | null;
  /** The header's columns the format reads nothing from, in the file's order. */
  ignored: string[];
}

/** The file's columns that neither `columns` nor `alsoReads` name. */
function ignoredColumns(format: ImportFormat, header: readonly string[]): string[] {
  const read = new Set([...Object.values(format.columns ?? {}).flat(), ...(format.alsoReads ?? [])].map(headerKey));
  return header.filter((name) => name !== '' && !read.has(headerKey(name)));
}

/** The header checked against the format's columns (CSV formats only; null for the others). */
export function columnsFound(format: ImportFormat, head: FileHead): ColumnsFound | null {
  if (!format.columns) return null;
  const byKey = new Map(head.header.map((name) => [headerKey(name), name]));
  const columns: Record<string, string | null> = {};
  for (const [field, names] of Object.entries(format.columns)) {
    columns[field] = names.map((n) => byKey.get(headerKey(n))).find((n) => n !== undefined) ?? null;
  }
  const aliasNames = format.columns.alias ?? [];
  const recognised = Object.entries(columns)
    .filter(([, name]) => name !== null)
    .map(([field, name]) => (headerKey(name!) === headerKey(field) ? name! : `${name} (${field})`));
  const aliasMissing =
    aliasNames.length > 0 && columns.alias === null
      ? `The file has no alias column (${format.name} reads it from ${aliasNames.join(', ')}); columns recognised: ${recognised.join(', ') || 'none'}.`
      : null;
  return { columns, aliasMissing, ignored: ignoredColumns(format, head.header) };
}
