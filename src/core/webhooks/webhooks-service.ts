import { FieldErrorBag, NotFoundError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import { checkWebhookInput, checkWebhookPatch } from './webhook-rules.ts';
import { newWebhookSecret } from './signature.ts';
import { WEBHOOK_LIMITS, type Webhook, type WebhookInput, type WebhookPatch } from './webhook.ts';
import type { WebhookStore, WebhookTargetCheck } from './ports.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import { recordChange, unaudited, type AuditedUnit } from '../audit/record-change.ts';

const PRIVATE_TARGET_MESSAGE = 'The url must not resolve to a private, loopback or link-local address.';

export interface WebhooksServiceDeps {
  store: WebhookStore;
  targets: WebhookTargetCheck;
  clock: Clock;
  /** Told of a new webhook, so this instance's clicks tap starts batching for its account at once. */
  onCreated?: (webhook: Webhook) => void;
  /** A change and its audit entry commit together (docs/design/teams.md); absent: no entries. */
  unit?: AuditedUnit<WebhookStore>;
}

/** An account's webhooks: created with a secret shown once, listed, changed, deleted. */
export class WebhooksService {
  private readonly unit: AuditedUnit<WebhookStore>;

  constructor(private readonly deps: WebhooksServiceDeps) {
    this.unit = deps.unit ?? unaudited(deps.store);
  }

  async create(
    accountId: number,
    input: WebhookInput,
    actor: AuditActor,
  ): Promise<{ webhook: Webhook; secret: string }> {
    const bag = new FieldErrorBag();
    const checked = checkWebhookInput(input, bag);
    if (checked && !(await this.deps.targets.reachable(checked.url))) bag.add('url', PRIVATE_TARGET_MESSAGE);
    bag.throwIfAny();
    if ((await this.deps.store.count(accountId)) >= WEBHOOK_LIMITS.perAccount) {
      throw ValidationError.of('url', messages.max('webhooks', WEBHOOK_LIMITS.perAccount));
    }
    const secret = newWebhookSecret();
    const change = { workspaceId: accountId, actor, type: 'webhook', at: this.deps.clock.now() };
    const webhook = await this.unit(async (tx) => {
      const webhook = await tx.store.insert(accountId, { ...checked!, secret }, change.at);
      // The signing secret is not part of the record: no entry can hold it.
      await recordChange(tx.audit, change, null, webhook);
      return webhook;
    });
    this.deps.onCreated?.(webhook);
    return { webhook, secret };
  }

  list(accountId: number): Promise<Webhook[]> {
    return this.deps.store.list(accountId);
  }

  async get(accountId: number, id: number): Promise<Webhook> {
    const found = await this.deps.store.findById(accountId, id);
    if (!found) throw new NotFoundError('webhook');
    return found;
  }

  /**
   * Changes the fields given, checked as on creation (a new url must be reachable too). Turning
   * it off drops its pending deliveries and tells no one (the change's author knows); turning it
   * on again clears its failure, so it has a whole window before it can be disabled anew.
   */
  async update(accountId: number, id: number, input: WebhookPatch, actor: AuditActor): Promise<Webhook> {
    const bag = new FieldErrorBag();
    const patch = checkWebhookPatch(input, bag);
    if (patch.url !== undefined && !(await this.deps.targets.reachable(patch.url)))
      bag.add('url', PRIVATE_TARGET_MESSAGE);
    bag.throwIfAny();
    const change = { workspaceId: accountId, actor, type: 'webhook', at: this.deps.clock.now() };
    return this.unit(async (tx) => {
      const before = await tx.store.findById(accountId, id);
      const after = before && (await tx.store.update(accountId, id, patch, change.at));
      if (!before || !after) throw new NotFoundError('webhook');
      await recordChange(tx.audit, change, before, after);
      return after;
    });
  }

  async delete(accountId: number, id: number, actor: AuditActor): Promise<void> {
    const change = { workspaceId: accountId, actor, type: 'webhook', at: this.deps.clock.now() };
    await this.unit(async (tx) => {
      const before = await tx.store.findById(accountId, id);
      if (!before || !(await tx.store.delete(accountId, id))) throw new NotFoundError('webhook');
      await recordChange(tx.audit, change, before, null);
    });
  }

  /** The ids of the account's webhooks disabled since it was last told (each told once). */
  takeDisabledNotice(accountId: number): Promise<number[]> {
    return this.deps.store.takeDisabledNotice(accountId);
  }
}
