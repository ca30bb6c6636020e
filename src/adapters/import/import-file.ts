import type { Account } from '../../core/accounts/account.ts';
import type { ImportOptions, ImportReport } from '../../core/links/import/import-row.ts';
import type { LinkImporter } from '../../core/links/import/link-importer.ts';
import { ValidationError } from '../../core/shared/errors.ts';
import type { ImportSource } from './format.ts';
import { IMPORT_FORMAT_NAMES, chooseFormat, fileHead } from './formats.ts';

/** The whole import of one file: its format (named, or detected from its head), its rows, the report with the format's name. */
export async function importFile(
  importer: LinkImporter,
  account: Pick<Account, 'id' | 'timezone'>,
  source: ImportSource,
  head: Buffer,
  options: ImportOptions & { format?: string | undefined },
): Promise<ImportReport & { format: string }> {
  if (options.format !== undefined && !IMPORT_FORMAT_NAMES.includes(options.format)) {
    throw ValidationError.of('format', `The format must be one of: ${IMPORT_FORMAT_NAMES.join(', ')}.`);
  }
  const format = chooseFormat(fileHead(head), options.format);
  if (!format) throw ValidationError.of('format', `The file's format was not recognised; name one of: ${IMPORT_FORMAT_NAMES.join(', ')}.`);
  const report = await importer.run(account.id, account.timezone, format.rows(source), options);
  return { format: format.name, ...report };
}
