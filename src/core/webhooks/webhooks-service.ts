import { FieldErrorBag, NotFoundError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import { checkWebhookInput } from './webhook-rules.ts';
import { newWebhookSecret } from './signature.ts';
import { WEBHOOK_LIMITS, type Webhook, type WebhookInput } from './webhook.ts';
import type { WebhookStore, WebhookTargetCheck } from './ports.ts';

const PRIVATE_TARGET_MESSAGE = 'The url must not resolve to a private, loopback or link-local address.';

export interface WebhooksServiceDeps {
  store: WebhookStore;
  targets: WebhookTargetCheck;
  clock: Clock;
  /** Told of a new webhook, so this instance's clicks tap starts batching for its account at once. */
  onCreated?: (webhook: Webhook) => void;
}

/** An account's webhooks: created with a secret shown once, listed, deleted. */
export class WebhooksService {
  constructor(private readonly deps: WebhooksServiceDeps) {}

  async create(accountId: number, input: WebhookInput): Promise<{ webhook: Webhook; secret: string }> {
    const bag = new FieldErrorBag();
    const checked = checkWebhookInput(input, bag);
    if (checked && !(await this.deps.targets.reachable(checked.url))) bag.add('url', PRIVATE_TARGET_MESSAGE);
    bag.throwIfAny();
    if ((await this.deps.store.count(accountId)) >= WEBHOOK_LIMITS.perAccount) {
      throw ValidationError.of('url', messages.max('webhooks', WEBHOOK_LIMITS.perAccount));
    }
    const secret = newWebhookSecret();
    const webhook = await this.deps.store.insert(accountId, { ...checked!, secret }, this.deps.clock.now());
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

  async delete(accountId: number, id: number): Promise<void> {
    if (!(await this.deps.store.delete(accountId, id))) throw new NotFoundError('webhook');
  }

  /** The ids of the account's webhooks disabled since it was last told (each told once). */
  takeDisabledNotice(accountId: number): Promise<number[]> {
    return this.deps.store.takeDisabledNotice(accountId);
  }
}
