import type { AuditActor } from '../../audit/audit-entry.ts';
import type { FieldErrors } from '../../shared/errors.ts';
import type { LinkInput } from '../link-input.ts';
import type { CheckedLinkInput } from '../link-rules.ts';

/**
 * One link read from another shortener's file, in linkpix's own create names. Records an import
 * refers to are named, not numbered: ids of another installation mean nothing here.
 */
export interface ImportRow {
  /** Where the row is in its file (a CSV line, a JSON entry, a VALUES tuple), for the report. */
  line: number;
  input: LinkInput;
  /** An expiry instant already known (exports hold instants, not wall times); overrides expiration_date/time. */
  endsAt?: number | null;
  /** The account's space of this name; one is created when none has it. */
  spaceName?: string | null;
  /** The account's domain of this name; a name the account does not hold fails the row. */
  domainName?: string | null;
  /** The account's pixels of these names; unknown names are left out with a note. */
  pixelNames?: readonly string[];
  /** What the mapper had to change or leave out (a password no export carries). */
  notes?: readonly string[];
  /** The row could not be read at all (a malformed CSV row): reported, never fatal. */
  unreadable?: string;
}

/**
 * A row after the create rules that need no database (checkImportRow): its checked fields, or
 * the faults found so far (the named records are still looked up, so every bad field is told),
 * or why it could not be read. Plain data: it crosses from the thread that reads the file.
 */
export interface CheckedRow {
  line: number;
  checked?: CheckedLinkInput;
  errors?: FieldErrors;
  unreadable?: string;
  endsAt?: number | null;
  spaceName?: string | null;
  domainName?: string | null;
  pixelNames?: readonly string[];
  notes?: readonly string[];
}

export type ImportStatus = 'created' | 'replaced' | 'renamed' | 'skipped' | 'error';

export interface ImportOutcome {
  line: number;
  status: ImportStatus;
  alias?: string;
  /** The link written (null on a dry run). */
  id?: number | null;
  reason?: string;
  errors?: FieldErrors;
  notes?: readonly string[];
}

/** What happens to a row whose alias is taken: skip it (the default), take a free variant, or overwrite the account's own link. */
export type OnConflict = 'skip' | 'rename' | 'replace';
export const ON_CONFLICT: readonly OnConflict[] = ['skip', 'rename', 'replace'];

export interface ImportOptions {
  onConflict: OnConflict;
  /** Whose import it is, for each link's audit entry (its `via`: import, whichever door started it). */
  actor: AuditActor;
  dryRun: boolean;
  /** A row without an alias is an error instead of getting a random one. */
  strict?: boolean;
  /** Every row's outcome, listed in the report or not, as its batch is done (a caller that keeps them all). */
  onOutcome?: (outcome: ImportOutcome) => void;
  /** Called after each batch with the rows seen so far (the CLI's progress line). */
  onProgress?: (rows: number) => void;
}

export interface ImportReport {
  dry_run: boolean;
  counts: Record<ImportStatus, number>;
  /** Rows created under a random alias: the file gave them none. */
  random_aliases: number;
  /**
   * The rows not imported as the file says, in file order: every status but `created`, and a
   * created row with notes (a random alias, a password left behind). At most REPORT_ROWS, so
   * the report does not grow with the file.
   */
  rows: ImportOutcome[];
  /** Rows that would have been listed past REPORT_ROWS. */
  rows_omitted: number;
}
