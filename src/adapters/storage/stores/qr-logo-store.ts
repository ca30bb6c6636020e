import type { Kysely } from 'kysely';
import type { QrLogo } from '../../qr/qr-options.ts';
import type { Database } from '../schema.ts';

/** Links' QR logos (migration 0024), each read and written only through its owner's link. */
export class SqlQrLogoStore {
  constructor(private readonly db: Kysely<Database>) {}

  async get(accountId: number, linkId: number): Promise<QrLogo | null> {
    const row = await this.db
      .selectFrom('link_qr_logos')
      .innerJoin('links', 'links.id', 'link_qr_logos.link_id')
      .select(['link_qr_logos.type', 'link_qr_logos.bytes'])
      .where('link_qr_logos.link_id', '=', linkId)
      .where('links.account_id', '=', accountId)
      .executeTakeFirst();
    return row ? { type: row.type, bytes: new Uint8Array(row.bytes) } : null;
  }

  /** Sets the logo of the account's link; false when the account has no such link. */
  async put(accountId: number, linkId: number, logo: QrLogo, now: number): Promise<boolean> {
    const owned = await this.db.selectFrom('links').select('id').where('id', '=', linkId).where('account_id', '=', accountId).executeTakeFirst();
    if (!owned) return false;
    const bytes = Buffer.from(logo.bytes);
    await this.db
      .insertInto('link_qr_logos')
      .values({ link_id: linkId, type: logo.type, bytes, created_at: now })
      .onConflict((oc) => oc.column('link_id').doUpdateSet({ type: logo.type, bytes, created_at: now }))
      .execute();
    return true;
  }

  async remove(accountId: number, linkId: number): Promise<void> {
    const owned = this.db.selectFrom('links').select('id').where('id', '=', linkId).where('account_id', '=', accountId);
    await this.db.deleteFrom('link_qr_logos').where('link_id', 'in', owned).execute();
  }
}
