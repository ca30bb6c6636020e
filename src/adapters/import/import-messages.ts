import type { CheckedRow } from '../../core/links/import/import-row.ts';
import type { DefaultStatsPrivacy } from '../../core/links/new-link-fields.ts';

/** What the import's thread is given (structured-cloned): the file and how to read and check it. */
export interface ReaderData {
  /** The file on disk: the CLI's argument, or the upload as the route wrote it. */
  path: string;
  /** The format named by the caller (already one of IMPORT_FORMAT_NAMES), else detected. */
  format: string | undefined;
  strict: boolean;
  timeZone: string;
  urlSchemes: readonly string[];
  /** A row without a privacy gets DEFAULT_STATS_PRIVACY, as a create does. */
  defaultPrivacy: DefaultStatsPrivacy;
}

/** The file's format as chosen, and the header's columns for a CSV format. */
export interface ReaderStart {
  kind: 'start';
  format: string;
  columns?: Record<string, string | null>;
  /** A CSV format's header columns it reads nothing from. */
  ignored_columns?: string[];
  warnings: string[];
}

/** The file is refused before any row is read: a 422 on `field`. */
export interface ReaderRefusal {
  kind: 'refused';
  field: string;
  message: string;
}

export type ReaderMessage = ReaderStart | ReaderRefusal | { kind: 'rows'; rows: CheckedRow[] } | { kind: 'end' };

/** The main thread took a batch: the thread may send one more. */
export interface ReaderCredit {
  kind: 'more';
}
