import { BULK_MAX_LINES } from './bulk-input.ts';

/** One line of a bulk submit and what became of it: a short URL, or the rules' messages. */
export interface BulkRow {
  line: number;
  url: string;
  shortUrl: string | null;
  errors: string[];
}

/**
 * The result travels with the result page (a hidden field of its CSV form), so the download needs
 * nothing stored on the server. Compact JSON: [line, url, short URL or "", errors joined].
 */
export function encodeResults(rows: readonly BulkRow[]): string {
  return JSON.stringify(rows.map((r) => [r.line, r.url, r.shortUrl ?? '', r.errors.join(' ')]));
}

/** The rows of a posted result; null when it is not one (tampered with, cut short). */
export function decodeResults(value: unknown): BulkRow[] | null {
  if (typeof value !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length > BULK_MAX_LINES) return null;
  const rows: BulkRow[] = [];
  for (const item of parsed as unknown[]) {
    if (!Array.isArray(item) || item.length !== 4) return null;
    const [line, url, shortUrl, errors] = item as unknown[];
    if (
      !Number.isSafeInteger(line) ||
      typeof url !== 'string' ||
      typeof shortUrl !== 'string' ||
      typeof errors !== 'string'
    )
      return null;
    rows.push({ line: line as number, url, shortUrl: shortUrl || null, errors: errors ? [errors] : [] });
  }
  return rows;
}

/**
 * A CSV cell. Quoted when it holds a separator, a quote or a line break; a leading = + - @ or
 * control character gets a ' first, so a spreadsheet shows the text instead of running it as a
 * formula (a bad line is whatever was typed).
 */
function cell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The result as CSV (RFC 4180, CRLF): line, url, short_url, error. */
export function resultCsv(rows: readonly BulkRow[]): string {
  const lines = [['line', 'url', 'short_url', 'error'].join(',')];
  for (const r of rows) lines.push([r.line, r.url, r.shortUrl ?? '', r.errors.join(' ')].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
