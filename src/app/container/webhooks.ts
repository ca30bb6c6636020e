import { linkRecord, type ShortUrlOptions } from '../../adapters/shared/presenters/link-record.ts';
import { createWebhookRuntime, type WebhookRuntime, type WebhookRuntimeOverrides } from '../webhook-runtime.ts';
import { errorsOf, type Base, type RecordsOn } from './base.ts';

/** Webhooks: their deliveries present a link as the API's link record does. */
export function webhooksOf(
  base: Base,
  deps: { recordsOn: RecordsOn; shortUrls: ShortUrlOptions; overrides: WebhookRuntimeOverrides | undefined },
): WebhookRuntime {
  const { config, tuning, storage, clock } = base;
  return createWebhookRuntime(
    config,
    tuning,
    storage,
    clock,
    (view) => linkRecord(view, deps.shortUrls),
    deps.recordsOn,
    errorsOf(base, 'linkpix: webhooks:'),
    deps.overrides,
  );
}
