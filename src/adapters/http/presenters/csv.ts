/**
 * CSV as RFC 4180 describes it: CRLF line ends, fields quoted when they hold a comma, a quote
 * or a line break, quotes doubled. Text that a spreadsheet would run as a formula (= + - @,
 * tab, carriage return first) is prefixed with an apostrophe, as OWASP advises.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
