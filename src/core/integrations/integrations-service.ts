import type { AuditActor } from '../audit/audit-entry.ts';
import { unaudited, type AuditedUnit } from '../audit/record-change.ts';
import type { ConversionService } from '../conversions/conversion-service.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import { randomToken } from '../shared/secrets.ts';
import type { Delivery, Sender } from './delivery.ts';
import type { Integration, IntegrationStore, IntegrationType } from './integration.ts';
import { checkIntegrationInput, type IntegrationInput } from './integration-input.ts';
import { shopifySender } from './shopify-sender.ts';
import { stripeSender } from './stripe-sender.ts';

const SENDERS: Record<IntegrationType, Sender> = { stripe: stripeSender, shopify: shopifySender };
/** A workspace needs one per shop or Stripe account; the cap keeps a runaway script from filling the table. */
const PER_WORKSPACE = 20;
/** 256 random bits: the endpoint's address cannot be guessed. */
const TOKEN_BYTES = 32;
/** The longest sender's event id kept (the column's width); a longer one is none Stripe or Shopify sends. */
const EVENT_ID_MAX = 255;
/** The conversion a sale records (docs/api.md, Integrations). */
const SALE = 'sale';

/**
 * What a delivery came to: only `refused` (a bad or missing signature) is not a 200.
 * `already_converted`: the click had its sale (a conversion is once per click and name).
 */
export type Receipt = 'recorded' | 'already_converted' | 'seen' | 'ignored' | 'refused';

export interface IntegrationsServiceDeps {
  store: IntegrationStore;
  /** An integration and its audit entry commit together; absent: no entries. */
  unit?: AuditedUnit<IntegrationStore>;
  /** The conversions' own service: a sale is recorded as POST /api/v1/conversions records one. */
  conversions: Pick<ConversionService, 'record'>;
  clock: Clock;
}

/** A workspace's integrations with the systems that hold its sales, and the deliveries they post. */
export class IntegrationsService {
  private readonly unit: AuditedUnit<IntegrationStore>;

  constructor(private readonly deps: IntegrationsServiceDeps) {
    this.unit = deps.unit ?? unaudited(deps.store);
  }

  async create(workspaceId: number, input: IntegrationInput, actor: AuditActor): Promise<Integration> {
    const checked = checkIntegrationInput(input);
    if ((await this.deps.store.count(workspaceId)) >= PER_WORKSPACE)
      throw ValidationError.of('type', messages.max('integrations', PER_WORKSPACE));
    const at = this.deps.clock.now();
    const credentials = await this.deps.store.seal({ token: randomToken(TOKEN_BYTES), secret: checked.secret });
    return this.unit(async (tx) => {
      const integration = await tx.store.insert(workspaceId, checked.type, credentials, at);
      // Neither the secret nor the token is part of the entry: the log never holds a credential.
      await tx.audit?.record([entry(workspaceId, actor, 'integration.created', integration, at)]);
      return integration;
    });
  }

  list(workspaceId: number): Promise<Integration[]> {
    return this.deps.store.list(workspaceId);
  }

  async remove(workspaceId: number, id: number, actor: AuditActor): Promise<void> {
    const at = this.deps.clock.now();
    // Read before the transaction: opening its token may read the database's key.
    const before = await this.deps.store.findById(workspaceId, id);
    if (!before) throw new NotFoundError('integration');
    await this.unit(async (tx) => {
      if (!(await tx.store.delete(workspaceId, id))) throw new NotFoundError('integration');
      await tx.audit?.record([entry(workspaceId, actor, 'integration.removed', before, at)]);
    });
  }

  /**
   * A sender's post to an endpoint: an unknown token is not found; a bad signature is refused;
   * otherwise the sale, if it tells of one, is recorded once per event id, against a click of the
   * integration's own workspace only (another's, or an id that does not read, records nothing).
   */
  async receive(token: string, delivery: Delivery): Promise<Receipt> {
    const found = await this.deps.store.findByToken(token);
    if (found === null) throw new NotFoundError('integration');
    const { integration, secret } = found;
    const sender = SENDERS[integration.type];
    const now = this.deps.clock.now();
    if (!sender.verify(delivery, secret, now)) return 'refused';
    const event = sender.read(delivery);
    if (event === null || event.sale === null || event.eventId.length > EVENT_ID_MAX) return 'ignored';
    const { sale } = event;
    if (sale.clickId === null) return 'ignored';
    if (!(await this.deps.store.claimEvent(integration.id, event.eventId, now))) return 'seen';
    try {
      const { created } = await this.deps.conversions.record(integration.workspaceId, {
        click_id: sale.clickId,
        name: SALE,
        value: sale.value,
        currency: sale.currency,
      });
      return created ? 'recorded' : 'already_converted';
    } catch (error) {
      if (error instanceof ValidationError || error instanceof NotFoundError) return 'ignored';
      await this.deps.store.releaseEvent(integration.id, event.eventId);
      throw error;
    }
  }
}

function entry(workspaceId: number, actor: AuditActor, action: string, integration: Integration, at: number) {
  return {
    workspaceId,
    actor,
    action,
    target: { type: 'integration', id: integration.id },
    changes: { type: action.endsWith('created') ? [null, integration.type] : [integration.type, null] } as Record<
      string,
      [unknown, unknown]
    >,
    at,
  };
}
