import type { Kysely, Selectable } from 'kysely';
import { ValidationError } from '../../../core/shared/errors.ts';
import { messages } from '../../../core/shared/messages.ts';
import { isTagColour, type Tag, type TagColour, type TagWithCount } from '../../../core/tags/tag.ts';
import { colourFor, tagKey } from '../../../core/tags/tag-names.ts';
import type { TagStore } from '../../../core/tags/tag-store.ts';
import type { Database, TagsTable } from '../schema.ts';
import { isUniqueViolation } from '../sql-helpers.ts';
import { storeTransaction } from '../transactions.ts';

const toTag = (r: Selectable<TagsTable>): Tag => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  color: isTagColour(r.color) ? r.color : 'gray',
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const byName = (a: Tag, b: Tag) =>
  a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id - b.id;

export class SqlTagStore implements TagStore {
  constructor(private readonly db: Kysely<Database>) {}

  async list(accountId: number): Promise<TagWithCount[]> {
    const rows = await this.db
      .selectFrom('tags')
      .selectAll('tags')
      .select((eb) =>
        eb
          .selectFrom('link_tags')
          .select((e) => e.fn.countAll().as('n'))
          .whereRef('link_tags.tag_id', '=', 'tags.id')
          .as('links'),
      )
      .where('account_id', '=', accountId)
      .execute();
    return rows.map((r) => ({ ...toTag(r), links: Number(r.links ?? 0) })).sort(byName);
  }

  async findById(accountId: number, id: number): Promise<Tag | null> {
    const row = await this.db
      .selectFrom('tags')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? toTag(row) : null;
  }

  async ensure(accountId: number, names: readonly string[], now: number): Promise<Tag[]> {
    if (names.length === 0) return [];
    const keys = names.map(tagKey);
    // Two requests may name a new tag at once: the unique index keeps one, both read it back.
    await this.db
      .insertInto('tags')
      .values(
        names.map((name) => ({
          account_id: accountId,
          name,
          name_key: tagKey(name),
          color: colourFor(name),
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['account_id', 'name_key']).doNothing())
      .execute();
    const rows = await this.db
      .selectFrom('tags')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('name_key', 'in', keys)
      .execute();
    const byKey = new Map(rows.map((r) => [r.name_key, toTag(r)]));
    return keys.flatMap((key) => byKey.get(key) ?? []);
  }

  async setLinkTags(accountId: number, linkIds: readonly number[], tagIds: readonly number[]): Promise<void> {
    if (linkIds.length === 0) return;
    await storeTransaction(this.db, async (trx) => {
      const owned = await trx
        .selectFrom('links')
        .select('id')
        .where('account_id', '=', accountId)
        .where('id', 'in', [...linkIds])
        .execute();
      const ids = owned.map((r) => r.id);
      if (ids.length === 0) return;
      await trx.deleteFrom('link_tags').where('link_id', 'in', ids).execute();
      const pairs = ids.flatMap((link_id) => tagIds.map((tag_id) => ({ link_id, tag_id })));
      if (pairs.length > 0) await trx.insertInto('link_tags').values(pairs).execute();
    });
  }

  async tagsOfLinks(accountId: number, linkIds: readonly number[]): Promise<Map<number, Tag[]>> {
    const map = new Map<number, Tag[]>();
    if (linkIds.length === 0) return map;
    const rows = await this.db
      .selectFrom('link_tags')
      .innerJoin('tags', 'tags.id', 'link_tags.tag_id')
      .selectAll('tags')
      .select('link_tags.link_id')
      .where('tags.account_id', '=', accountId)
      .where('link_tags.link_id', 'in', [...new Set(linkIds)])
      .execute();
    for (const r of rows) (map.get(r.link_id) ?? map.set(r.link_id, []).get(r.link_id)!).push(toTag(r));
    for (const tags of map.values()) tags.sort(byName);
    return map;
  }

  async nameTaken(accountId: number, name: string, exceptId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('tags')
      .select('id')
      .where('account_id', '=', accountId)
      .where('name_key', '=', tagKey(name))
      .where('id', '!=', exceptId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(
    accountId: number,
    id: number,
    fields: { name?: string; color?: TagColour },
    now: number,
  ): Promise<Tag | null> {
    try {
      const row = await this.db
        .updateTable('tags')
        .set({ ...fields, ...(fields.name !== undefined ? { name_key: tagKey(fields.name) } : {}), updated_at: now })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .returningAll()
        .executeTakeFirst();
      return row ? toTag(row) : null;
    } catch (error) {
      // A rename raced another to the same name: the index decides, the client hears the usual answer.
      throw isUniqueViolation(error) ? ValidationError.of('name', messages.taken('name')) : error;
    }
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('tags')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
