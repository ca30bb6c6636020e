import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../../core/shared/page.ts';
import type { UtmParams } from '../../../core/utm/utm-params.ts';
import type { UtmTemplate } from '../../../core/utm/utm-template.ts';
import type { UtmTemplateFilter, UtmTemplateStore } from '../../../core/utm/utm-template-store.ts';
import type { Database, UtmTemplatesTable } from '../schema.ts';
import { OwnedRowsStore } from './owned-rows.ts';

const toTemplate = (r: Selectable<UtmTemplatesTable>): UtmTemplate => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  params: {
    utm_source: r.utm_source,
    utm_medium: r.utm_medium,
    utm_campaign: r.utm_campaign,
    utm_term: r.utm_term,
    utm_content: r.utm_content,
  },
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class SqlUtmTemplateStore extends OwnedRowsStore<'utm_templates', UtmTemplate> implements UtmTemplateStore {
  constructor(db: Kysely<Database>) {
    super(db, 'utm_templates', toTemplate, 'name_key');
  }

  async insert(accountId: number, fields: { name: string; params: UtmParams }, now: number) {
    const row = await this.db
      .insertInto('utm_templates')
      .values({
        account_id: accountId,
        name: fields.name,
        name_key: fields.name.toLowerCase(),
        ...fields.params,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTemplate(row);
  }

  async update(accountId: number, id: number, fields: { name?: string; params: Partial<UtmParams> }, now: number) {
    const named = fields.name === undefined ? {} : { name: fields.name, name_key: fields.name.toLowerCase() };
    const row = await this.db
      .updateTable('utm_templates')
      .set({ ...named, ...fields.params, updated_at: now })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returningAll()
      .executeTakeFirst();
    return row ? toTemplate(row) : null;
  }

  nameTaken(accountId: number, name: string, exceptId?: number) {
    return this.isNameTaken(accountId, name, exceptId);
  }

  list(accountId: number, filter: UtmTemplateFilter, page: PageRequest) {
    return this.listPage(accountId, filter, page);
  }
}
