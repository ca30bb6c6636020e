import type { Kysely } from 'kysely';
import { digest } from '../../../core/shared/secrets.ts';
import type { KeptFile, KeptImport, KeptImports } from '../../import/kept-imports.ts';
import type { Database } from '../schema.ts';

/** Web dry runs' files (migration 0053), one per workspace and person, read back only with their token. */
export class SqlKeptImports implements KeptImports {
  constructor(private readonly db: Kysely<Database>) {}

  async keep(kept: KeptImport, now: number): Promise<void> {
    const row = {
      token_hash: digest(kept.token),
      format: kept.format,
      on_conflict: kept.onConflict,
      bytes: Buffer.from(kept.bytes.buffer, kept.bytes.byteOffset, kept.bytes.byteLength),
      created_at: now,
      expires_at: kept.expiresAt,
    };
    await this.db
      .insertInto('kept_imports')
      .values({ workspace_id: kept.workspaceId, user_id: kept.personId, ...row })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet(row))
      .execute();
  }

  async take(
    { workspaceId, personId }: { workspaceId: number; personId: number },
    token: string,
    now: number,
  ): Promise<KeptFile | null> {
    const row = await this.db
      .deleteFrom('kept_imports')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', personId)
      .where('token_hash', '=', digest(token))
      .where('expires_at', '>', now)
      .returning(['format', 'on_conflict', 'bytes'])
      .executeTakeFirst();
    return row ? { format: row.format, onConflict: row.on_conflict, bytes: new Uint8Array(row.bytes) } : null;
  }

  async removeExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom('kept_imports').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
