import { FieldErrorBag, ValidationError, type FieldErrors } from '../../shared/errors.ts';
import { checkLinkInput } from '../link-rules.ts';
import type { DefaultStatsPrivacy } from '../new-link-fields.ts';
import type { UrlPolicy } from '../url-policy.ts';
import type { CheckedRow, ImportRow } from './import-row.ts';

export interface RowCheckContext {
  urls: UrlPolicy;
  /** The account's zone: a wall expiry (expiration_date/time) is read in it. */
  timeZone: string;
  /** A row without an alias is refused rather than given a random one. */
  strict: boolean;
  /** What a row without a privacy gets (the operator's default). */
  defaultPrivacy: DefaultStatsPrivacy;
}

const NO_ALIAS_STRICT = 'The row has no alias; a strict import gives none at random.';

/**
 * The create rules that need no database, for one row: run where the file is read (the import's
 * thread), so that the server's event loop gets rows already checked.
 */
export function checkImportRow(row: ImportRow, ctx: RowCheckContext): CheckedRow {
  const { line, unreadable } = row;
  if (unreadable !== undefined) return { line, unreadable };
  const named = {
    ...(row.endsAt === undefined ? {} : { endsAt: row.endsAt }),
    ...(row.spaceName === undefined ? {} : { spaceName: row.spaceName }),
    ...(row.domainName === undefined ? {} : { domainName: row.domainName }),
    ...(row.pixelNames === undefined ? {} : { pixelNames: row.pixelNames }),
    ...(row.notes === undefined ? {} : { notes: row.notes }),
  };
  const bag = new FieldErrorBag();
  const checked = checkLinkInput(
    row.input,
    { urls: ctx.urls, timeZone: ctx.timeZone, defaultPrivacy: ctx.defaultPrivacy },
    bag,
  );
  if (ctx.strict && !row.input.alias?.trim() && !bag.has('alias')) bag.add('alias', NO_ALIAS_STRICT);
  return bag.empty ? { line, ...named, checked } : { line, ...named, errors: faultsOf(bag) };
}

export function faultsOf(bag: FieldErrorBag): FieldErrors {
  try {
    bag.throwIfAny();
    return {};
  } catch (error) {
    if (error instanceof ValidationError) return error.fields;
    throw error;
  }
}
