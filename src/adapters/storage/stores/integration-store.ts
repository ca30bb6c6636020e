import type { Kysely, Selectable } from 'kysely';
import { digest } from '../../../core/shared/secrets.ts';
import {
  isIntegrationType,
  type Integration,
  type IntegrationStore,
  type IntegrationType,
  type ReceivingIntegration,
  type SealedCredentials,
} from '../../../core/integrations/integration.ts';
import type { Database, IntegrationsTable } from '../schema.ts';
import type { Sealer } from './two-factor-store.ts';

/**
 * Integrations with their token and the sender's secret sealed by the secrets' box (both are
 * listed in sealed-secrets.ts, so a rotation covers them); a delivery finds its integration by
 * the token's digest.
 */
export class SqlIntegrationStore implements IntegrationStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: Sealer,
  ) {}

  private async toIntegration(r: Selectable<IntegrationsTable>): Promise<Integration> {
    return {
      id: Number(r.id),
      workspaceId: Number(r.account_id),
      // Only these two are ever written (the core checks the type first).
      type: isIntegrationType(r.type) ? r.type : 'stripe',
      token: await this.box.open(r.token_box),
      createdAt: Number(r.created_at),
    };
  }

  async seal(credentials: { token: string; secret: string }): Promise<SealedCredentials> {
    return {
      token: credentials.token,
      sealed: { token: await this.box.seal(credentials.token), secret: await this.box.seal(credentials.secret) },
    };
  }

  async insert(
    workspaceId: number,
    type: IntegrationType,
    credentials: SealedCredentials,
    at: number,
  ): Promise<Integration> {
    const row = await this.db
      .insertInto('integrations')
      .values({
        account_id: workspaceId,
        type,
        token_digest: digest(credentials.token),
        token_box: credentials.sealed.token,
        secret_box: credentials.sealed.secret,
        created_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // The token is known here: the row's answer needs no opening (inside the caller's transaction).
    return { id: Number(row.id), workspaceId, type, token: credentials.token, createdAt: Number(row.created_at) };
  }

  async list(workspaceId: number): Promise<Integration[]> {
    const rows = await this.db
      .selectFrom('integrations')
      .selectAll()
      .where('account_id', '=', workspaceId)
      .orderBy('id')
      .execute();
    return Promise.all(rows.map((r) => this.toIntegration(r)));
  }

  async count(workspaceId: number): Promise<number> {
    const row = await this.db
      .selectFrom('integrations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findById(workspaceId: number, id: number): Promise<Integration | null> {
    const row = await this.db
      .selectFrom('integrations')
      .selectAll()
      .where('account_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? this.toIntegration(row) : null;
  }

  async delete(workspaceId: number, id: number): Promise<boolean> {
    // SQLite runs without foreign keys: the events go by name, before their integration.
    const owned = this.db
      .selectFrom('integrations')
      .select('id')
      .where('account_id', '=', workspaceId)
      .where('id', '=', id);
    await this.db.deleteFrom('integration_events').where('integration_id', 'in', owned).execute();
    const result = await this.db
      .deleteFrom('integrations')
      .where('account_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async findByToken(token: string): Promise<ReceivingIntegration | null> {
    const row = await this.db
      .selectFrom('integrations')
      .selectAll()
      .where('token_digest', '=', digest(token))
      .executeTakeFirst();
    if (!row) return null;
    return { integration: await this.toIntegration(row), secret: await this.box.open(row.secret_box) };
  }

  async claimEvent(integrationId: number, eventId: string, at: number): Promise<boolean> {
    // One conditional insert on the primary key: of two deliveries at once, one claims it.
    const result = await this.db
      .insertInto('integration_events')
      .values({ integration_id: integrationId, event_id: eventId, created_at: at })
      .onConflict((oc) => oc.columns(['integration_id', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async releaseEvent(integrationId: number, eventId: string): Promise<void> {
    await this.db
      .deleteFrom('integration_events')
      .where('integration_id', '=', integrationId)
      .where('event_id', '=', eventId)
      .execute();
  }
}
