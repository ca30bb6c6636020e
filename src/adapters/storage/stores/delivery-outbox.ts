import { sql, type Kysely } from 'kysely';
import type { ClaimedDelivery, DeliveryOutbox, NewDelivery } from '../../../core/webhooks/ports.ts';
import type { WebhookEvent } from '../../../core/webhooks/webhook.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';

const ROWS_PER_INSERT = 1000;

interface ClaimedRow {
  id: number;
  delivery_id: string;
  webhook_id: number;
  event: string;
  link_id: number | null;
  body: string;
  attempts: number;
}

/**
 * The webhook_deliveries table. A claim is one UPDATE that leases due rows: on PostgreSQL the
 * rows are picked `for update skip locked`, so instances claiming at once take different rows;
 * SQLite has one writer, so the statement alone is enough.
 */
export class SqlDeliveryOutbox implements DeliveryOutbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  async enqueue(deliveries: readonly NewDelivery[], now: number): Promise<void> {
    // An import's batch for every webhook of the account is many rows: a statement holds a
    // bounded number of them, under SQLite's limit on bound parameters.
    for (let i = 0; i < deliveries.length; i += ROWS_PER_INSERT)
      await this.insert(deliveries.slice(i, i + ROWS_PER_INSERT), now);
  }

  private async insert(deliveries: readonly NewDelivery[], now: number): Promise<void> {
    await this.db
      .insertInto('webhook_deliveries')
      .values(
        deliveries.map((d) => ({
          delivery_id: d.id,
          webhook_id: d.webhookId,
          event: d.event,
          link_id: d.linkId,
          body: d.body,
          created_at: now,
          next_at: now,
        })),
      )
      .execute();
  }

  async claim(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    // Most claims find nothing due: a read says so without asking for SQLite's write lock.
    const due = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('next_at', '<=', now)
      .limit(1)
      .executeTakeFirst();
    if (due === undefined) return [];
    const lock = this.engine === 'postgres' ? sql`for update of d skip locked` : sql``;
    // An earlier row of the same webhook and link is still pending (delivered rows are deleted):
    // this one waits, so one link's events arrive in order.
    const { rows } = await sql<ClaimedRow>`
      with picked as materialized (
        select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        where d.next_at <= ${now} and (d.lease_until is null or d.lease_until <= ${now}) and w.disabled_at is null
          and not exists (
            select 1 from webhook_deliveries e
            where e.webhook_id = d.webhook_id and e.link_id = d.link_id and e.id < d.id
          )
        order by d.id limit ${limit} ${lock}
      )
      update webhook_deliveries set lease_until = ${now + leaseMs}
      where id in (select id from picked)
      returning id, delivery_id, webhook_id, event, link_id, body, attempts`.execute(this.db);
    if (rows.length === 0) return [];
    const hooks = await this.db
      .selectFrom('webhooks')
      .select(['id', 'url', 'secret'])
      .where('id', 'in', [...new Set(rows.map((r) => r.webhook_id))])
      .execute();
    const byId = new Map(hooks.map((h) => [h.id, h]));
    return rows
      .filter((r) => byId.has(r.webhook_id))
      .sort((a, b) => a.id - b.id)
      .map((r) => ({
        id: r.delivery_id,
        webhookId: r.webhook_id,
        event: r.event as WebhookEvent,
        linkId: r.link_id,
        body: r.body,
        attempts: Number(r.attempts),
        url: byId.get(r.webhook_id)!.url,
        secret: byId.get(r.webhook_id)!.secret,
      }));
  }

  async delivered(delivery: ClaimedDelivery): Promise<void> {
    await this.db.deleteFrom('webhook_deliveries').where('delivery_id', '=', delivery.id).execute();
    await this.db
      .updateTable('webhooks')
      .set({ failing_since: null })
      .where('id', '=', delivery.webhookId)
      .where('failing_since', 'is not', null)
      .execute();
  }

  async failed(delivery: ClaimedDelivery, nextAt: number, error: string, now: number): Promise<number> {
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_at: nextAt, lease_until: null, last_error: error }))
      .where('delivery_id', '=', delivery.id)
      .execute();
    const row = await this.db
      .updateTable('webhooks')
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
      .where('id', '=', delivery.webhookId)
      .returning('failing_since')
      .executeTakeFirst();
    return Number(row?.failing_since ?? now);
  }

  async disable(webhookId: number, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhooks')
        .set({ disabled_at: now, disabled_told: 0 })
        .where('id', '=', webhookId)
        .where('disabled_at', 'is', null)
        .execute();
      await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).execute();
    });
  }
}
