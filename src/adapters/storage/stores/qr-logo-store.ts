import type { Kysely } from 'kysely';
import type { QrLogo } from '../../images/qr-logo-input.ts';
import type { Database } from '../schema.ts';
import type { AuditActor } from '../../../core/audit/audit-entry.ts';
import { SqlAuditLog } from './audit-store.ts';

/** What a logo's entry shows of it: its kind and size, never its bytes. */
const described = (logo: { type: string; bytes: { length: number } } | undefined) =>
  logo ? { type: logo.type, bytes: logo.bytes.length } : null;

/** The logo of the account's link, if it has one (another account's link has none). */
function ownedLogo(db: Kysely<Database>, accountId: number, linkId: number) {
  return db
    .selectFrom('link_qr_logos')
    .innerJoin('links', 'links.id', 'link_qr_logos.link_id')
    .select(['link_qr_logos.type', 'link_qr_logos.bytes'])
    .where('link_qr_logos.link_id', '=', linkId)
    .where('links.account_id', '=', accountId)
    .executeTakeFirst();
}

/** Links' QR logos (migration 0024), each read and written only through its owner's link. */
export class SqlQrLogoStore {
  constructor(private readonly db: Kysely<Database>) {}

  async get(accountId: number, linkId: number): Promise<QrLogo | null> {
    const row = await ownedLogo(this.db, accountId, linkId);
    return row ? { type: row.type, bytes: new Uint8Array(row.bytes) } : null;
  }

  /**
   * Sets the logo of the account's link, and writes the link's `link.updated` entry (the logo's
   * kind and size) in the same transaction (docs/design/teams.md); false when the account has no such link.
   */
  put(accountId: number, linkId: number, logo: QrLogo, now: number, actor: AuditActor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('links')
        .select('id')
        .where('id', '=', linkId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (!owned) return false;
      const before = await trx
        .selectFrom('link_qr_logos')
        .select(['type', 'bytes'])
        .where('link_id', '=', linkId)
        .executeTakeFirst();
      const bytes = Buffer.from(logo.bytes);
      await trx
        .insertInto('link_qr_logos')
        .values({ link_id: linkId, type: logo.type, bytes, created_at: now })
        .onConflict((oc) => oc.column('link_id').doUpdateSet({ type: logo.type, bytes, created_at: now }))
        .execute();
      await this.audit(trx, accountId, linkId, actor, now, described(before), described(logo));
      return true;
    });
  }

  /** Removes the logo of the account's link (none: nothing happens, no entry). */
  remove(accountId: number, linkId: number, now: number, actor: AuditActor): Promise<void> {
    return this.db.transaction().execute(async (trx) => {
      const before = await ownedLogo(trx, accountId, linkId);
      if (!before) return;
      await trx.deleteFrom('link_qr_logos').where('link_id', '=', linkId).execute();
      await this.audit(trx, accountId, linkId, actor, now, described(before), null);
    });
  }

  private audit(
    trx: Kysely<Database>,
    workspaceId: number,
    linkId: number,
    actor: AuditActor,
    at: number,
    old: unknown,
    next: unknown,
  ): Promise<void> {
    return new SqlAuditLog(trx).record([
      {
        workspaceId,
        actor,
        action: 'link.updated',
        target: { type: 'link', id: linkId },
        changes: { qr_logo: [old, next] },
        at,
      },
    ]);
  }
}
