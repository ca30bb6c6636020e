import type { Kysely } from 'kysely';
import type { CardImage } from '../../images/card-image-input.ts';
import type { StoredCardImage } from '../../images/card-image-store.ts';
import type { Database } from '../schema.ts';

/**
 * Links' uploaded social card images (migration 0051, `link_card_images`): one a link, gone with
 * it (the foreign key cascades). Written only through its owner's link; the link's
 * `social_card.image` names it, and that change is the link's own update and audit entry.
 */
export class SqlCardImageStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Sets the image of the account's link; false when the account has no such link. */
  put(accountId: number, linkId: number, image: CardImage, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('links')
        .select('id')
        .where('id', '=', linkId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (!owned) return false;
      const bytes = Buffer.from(image.bytes);
      await trx
        .insertInto('link_card_images')
        .values({ link_id: linkId, type: image.type, bytes, created_at: now })
        .onConflict((oc) => oc.column('link_id').doUpdateSet({ type: image.type, bytes, created_at: now }))
        .execute();
      return true;
    });
  }

  /** Removes the image of the account's link (none: nothing happens). */
  async remove(accountId: number, linkId: number): Promise<void> {
    await this.db
      .deleteFrom('link_card_images')
      .where('link_id', '=', linkId)
      .where('link_id', 'in', (q) => q.selectFrom('links').select('id').where('account_id', '=', accountId))
      .execute();
  }

  /** The image of a link, whoever owns it: the public route decides whether to serve it. */
  async find(linkId: number): Promise<StoredCardImage | null> {
    const row = await this.db
      .selectFrom('link_card_images')
      .innerJoin('links', 'links.id', 'link_card_images.link_id')
      .select(['links.account_id', 'link_card_images.bytes'])
      .where('link_card_images.link_id', '=', linkId)
      .executeTakeFirst();
    return row ? { accountId: row.account_id, image: { type: 'png', bytes: new Uint8Array(row.bytes) } } : null;
  }
}
