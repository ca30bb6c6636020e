import type { ImportRow } from '../../core/links/import/import-row.ts';
import { byHeaderKey, text } from './cells.ts';
import { csvRows, sqlRows, type ImportFormat } from './format.ts';

/** YOURLS's `yourls_url` table, in its install's column order. */
const YOURLS_COLUMNS = ['keyword', 'url', 'title', 'timestamp', 'ip', 'clicks'] as const;

function fromYourls(raw: Record<string, string | null>): Omit<ImportRow, 'line'> {
  const c = byHeaderKey(raw);
  return { input: { alias: text(c.keyword), url: text(c.url), title: text(c.title) ?? null } };
}

export const yourlsCsv: ImportFormat = {
  name: 'yourls-csv',
  columns: { alias: ['keyword'], url: ['url'], title: ['title'] },
  detect: (head) => ['keyword', 'url', 'ip', 'clicks'].every((h) => head.header.includes(h)),
  rows: (source) => csvRows(source, fromYourls),
};

export const yourlsSql: ImportFormat = {
  name: 'yourls-sql',
  detect: (head) => /INSERT\s+INTO\s+`?yourls_url`?[\s(]/i.test(head.text),
  rows: (source) => sqlRows(source, 'yourls_url', YOURLS_COLUMNS, fromYourls),
};
