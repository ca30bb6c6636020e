import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { checkImportRow } from '../../core/links/import/check-import-row.ts';
import type { CheckedRow } from '../../core/links/import/import-row.ts';
import { UrlPolicy } from '../../core/links/url-policy.ts';
import type { ReaderData, ReaderRefusal, ReaderStart } from './import-messages.ts';
import { HEAD_BYTES, IMPORT_FORMAT_NAMES, chooseFormat, columnsFound, fileHead } from './formats.ts';

async function headOf(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * A file to import, opened: its format (named, or detected from its head) and the header's
 * columns, or why it is refused; then its rows, mapped and checked by the create rules that
 * need no database. Runs in the import's thread (import-thread.ts).
 */
export async function readImportFile(
  data: ReaderData,
): Promise<{ start: ReaderStart; rows: AsyncIterable<CheckedRow> } | { start: ReaderRefusal }> {
  const head = fileHead(await headOf(data.path));
  const format = chooseFormat(head, data.format);
  if (!format) {
    return {
      start: {
        kind: 'refused',
        field: 'format',
        message: `The file's format was not recognised; name one of: ${IMPORT_FORMAT_NAMES.join(', ')}.`,
      },
    };
  }
  const found = columnsFound(format, head);
  const warnings: string[] = [];
  if (found?.aliasMissing) {
    if (data.strict)
      return {
        start: {
          kind: 'refused',
          field: 'file',
          message: `${found.aliasMissing} A strict import gives no random aliases.`,
        },
      };
    warnings.push(`${found.aliasMissing} Every row gets a random alias.`);
  }
  const context = {
    urls: new UrlPolicy(data.urlSchemes),
    timeZone: data.timeZone,
    strict: data.strict,
    defaultPrivacy: data.defaultPrivacy,
  };
  const source = { stream: () => createReadStream(data.path), text: () => readFile(data.path, 'utf8') };
  async function* rows(): AsyncGenerator<CheckedRow> {
    for await (const row of format!.rows(source, head)) yield checkImportRow(row, context);
  }
  return {
    start: {
      kind: 'start',
      format: format.name,
      ...(found ? { columns: found.columns, ignored_columns: found.ignored } : {}),
      warnings,
    },
    rows: rows(),
  };
}
