import { stat } from 'node:fs/promises';
import { ON_CONFLICT, type OnConflict } from '../../core/links/import/import-row.ts';
import { ValidationError } from '../../core/shared/errors.ts';
import { importFile } from '../import/import-file.ts';
import type { ImportSlots } from '../import/import-slots.ts';
import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import type { LinkImporter } from '../../core/links/import/link-importer.ts';
import type { WorkspacesService } from '../../core/workspaces/workspaces-service.ts';
import { personIn } from './workspace-flag.ts';

export interface ImportDeps {
  accounts: AccountsService;
  workspaces: WorkspacesService;
  importer: LinkImporter;
  /** The workspace's and the person's import leases: the CLI waits for no one, it refuses while another import of either runs. */
  importSlots: ImportSlots;
  /** URL_SCHEMES, by which the import's thread checks URLs. */
  urlSchemes: readonly string[];
  /** The largest file taken (the constant IMPORT_MAX_BYTES, the API's cap too). */
  importMaxBytes: number;
  /** Where the progress line goes: standard error when it is a terminal, else null. */
  progress: { write(text: string): unknown } | null;
}

/** `linkpix import FILE --email E [--workspace ID]`: the API's import (api.md §15) for the operator, reading the file from disk in a thread of its own. */
export const importCommand = {
  takesArgument: true as const,
  usage:
    'import FILE --email E [--workspace ID] [--format F] [--dry-run] [--strict] [--on-conflict=skip|rename|replace]   import links from a file',
  async run(
    { accounts, workspaces, importer, importSlots, urlSchemes, importMaxBytes, progress }: ImportDeps,
    flags: Record<string, string | undefined>,
    args: readonly string[],
  ) {
    if (args.length !== 1 || !args[0]) throw ValidationError.of('file', 'One file to import is required.');
    const email = flags.email;
    if (!email) throw ValidationError.of('email', 'The --email flag is required.');
    const onConflict = (flags['on-conflict'] ?? 'skip') as OnConflict;
    if (!ON_CONFLICT.includes(onConflict))
      throw ValidationError.of('on-conflict', `--on-conflict must be one of: ${ON_CONFLICT.join(', ')}.`);
    const path = args[0];
    const size = (await stat(path)).size;
    if (size > importMaxBytes)
      throw ValidationError.of(
        'file',
        `The file is ${size} bytes; an import takes at most ${importMaxBytes} bytes, through the API too: split it in parts.`,
      );
    // Into the workspace the person is a member of (their own by default), as an editor there may.
    const { person, workspace, actor } = await personIn({ accounts, workspaces }, email, flags.workspace);
    if (workspace !== null) await workspaces.authorizeIn(actor, workspace.id, 'links.import');
    const account = workspace ?? person;
    const ticket = await importSlots.acquire({ workspaceId: account.id, personId: person.id });
    try {
      const report = await importFile(importer, account, path, {
        format: flags.format,
        onConflict,
        // The operator's import: no person or key of the account made it.
        actor: { userId: null, keyId: null, via: 'import' },
        dryRun: flags['dry-run'] === 'true',
        strict: flags.strict === 'true',
        urlSchemes,
        lease: ticket,
        ...(progress ? { onProgress: (rows: number) => progress.write(`\rimport: ${rows} rows read`) } : {}),
      });
      progress?.write('\n');
      return report;
    } finally {
      await ticket.release();
    }
  },
};
