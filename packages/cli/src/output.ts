/** Where a command writes its answer (stdout) and what it tells the person (stderr). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, and standard error as a stream, for login's questions. */
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  errors: NodeJS.WritableStream;
}

const width = (text: string) => [...text].length;

/** A cell cut to `max` characters, the cut shown. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** Rows under their headers, each column as wide as its widest cell, two spaces apart. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - width(cell))))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** Label and value lines, the labels aligned. */
export function fields(pairs: [string, string][]): string {
  const wide = Math.max(...pairs.map(([label]) => width(label)));
  return pairs.map(([label, value]) => `${label}:${' '.repeat(wide - width(label) + 1)}${value}`).join('\n');
}

export const json = (value: unknown) => JSON.stringify(value, null, 2);
