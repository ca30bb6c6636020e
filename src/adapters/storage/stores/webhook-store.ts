import type { Kysely, Selectable, Updateable } from 'kysely';
import type { WebhookStore } from '../../../core/webhooks/ports.ts';
import type { CheckedWebhookPatch } from '../../../core/webhooks/webhook-rules.ts';
import {
  isWebhookEvent,
  isWebhookFormat,
  type Webhook,
  type WebhookEvent,
  type WebhookFormat,
  type WebhookSubscriber,
  type WebhookWithSecret,
} from '../../../core/webhooks/webhook.ts';
import type { Database, WebhooksTable } from '../schema.ts';

const toWebhook = (r: Selectable<WebhooksTable>): WebhookWithSecret => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  events: r.events.split(',').filter(isWebhookEvent),
  format: isWebhookFormat(r.format) ? r.format : 'json',
  secret: r.secret,
  createdAt: r.created_at,
  failingSince: r.failing_since,
  disabledAt: r.disabled_at,
});

/** The secret stays in the store: only creation hands it out. */
const withoutSecret = ({ secret: _secret, ...webhook }: WebhookWithSecret): Webhook => webhook;

export class SqlWebhookStore implements WebhookStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(
    accountId: number,
    fields: { url: string; events: WebhookEvent[]; format?: WebhookFormat; secret: string },
    now: number,
  ): Promise<Webhook> {
    const row = await this.db
      .insertInto('webhooks')
      .values({
        account_id: accountId,
        url: fields.url,
        events: fields.events.join(','),
        format: fields.format ?? 'json',
        secret: fields.secret,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return withoutSecret(toWebhook(row));
  }

  async list(accountId: number): Promise<Webhook[]> {
    const rows = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    return rows.map((r) => withoutSecret(toWebhook(r)));
  }

  async count(accountId: number): Promise<number> {
    const row = await this.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async findById(accountId: number, id: number): Promise<Webhook | null> {
    const row = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? withoutSecret(toWebhook(row)) : null;
  }

  async update(accountId: number, id: number, patch: CheckedWebhookPatch, now: number): Promise<Webhook | null> {
    const found = await this.findById(accountId, id);
    if (!found) return null;
    const set: Updateable<WebhooksTable> = {};
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.events !== undefined) set.events = patch.events.join(',');
    if (patch.format !== undefined) set.format = patch.format;
    // Turned off by its author: nothing to tell them. On again: a fresh start, told again if it fails for a window.
    if (patch.enabled === false && found.disabledAt === null)
      Object.assign(set, { disabled_at: now, disabled_told: 1 });
    if (patch.enabled === true && found.disabledAt !== null)
      Object.assign(set, { disabled_at: null, failing_since: null, disabled_told: 0 });
    if (Object.keys(set).length > 0)
      await this.db.updateTable('webhooks').set(set).where('account_id', '=', accountId).where('id', '=', id).execute();
    if (set.disabled_at !== undefined && set.disabled_at !== null)
      await this.db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    return this.findById(accountId, id);
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('webhooks')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async subscribers(accountId: number, event: WebhookEvent): Promise<WebhookSubscriber[]> {
    const rows = await this.db
      .selectFrom('webhooks')
      .innerJoin('accounts', 'accounts.id', 'webhooks.account_id')
      .selectAll('webhooks')
      .select('accounts.name as workspace')
      .where('webhooks.account_id', '=', accountId)
      .where('webhooks.disabled_at', 'is', null)
      .orderBy('webhooks.id')
      .execute();
    return rows
      .map(({ workspace, ...row }) => ({ ...toWebhook(row), workspace }))
      .filter((w) => w.events.includes(event));
  }

  async accountsSubscribed(event: WebhookEvent): Promise<number[]> {
    const rows = await this.db
      .selectFrom('webhooks')
      .select(['account_id', 'events'])
      .where('disabled_at', 'is', null)
      .where('events', 'like', `%${event}%`)
      .execute();
    return [...new Set(rows.filter((r) => r.events.split(',').includes(event)).map((r) => r.account_id))];
  }

  async takeDisabledNotice(accountId: number): Promise<number[]> {
    // A read first: every API request asks, and nearly always there is nothing to tell.
    const rows = await this.db
      .selectFrom('webhooks')
      .select('id')
      .where('account_id', '=', accountId)
      .where('disabled_at', 'is not', null)
      .where('disabled_told', '=', 0)
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const told = await this.db
      .updateTable('webhooks')
      .set({ disabled_told: 1 })
      .where('id', 'in', ids)
      .where('disabled_told', '=', 0)
      .returning('id')
      .execute();
    return told.map((r) => r.id).sort((a, b) => a - b);
  }
}
