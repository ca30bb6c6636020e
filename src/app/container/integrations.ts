import type { ConversionService } from '../../core/conversions/conversion-service.ts';
import { IntegrationsService } from '../../core/integrations/integrations-service.ts';
import { SecretBox } from '../../adapters/secrets/secret-box.ts';
import type { SealKeys } from '../../adapters/secrets/seal-keys.ts';
import { SqlAuditLog } from '../../adapters/storage/stores/audit-store.ts';
import { SqlIntegrationStore } from '../../adapters/storage/stores/integration-store.ts';
import { unitOfWorkOn } from '../../adapters/storage/transactions.ts';
import type { Base } from './base.ts';

/** Sales from Stripe and Shopify (docs/design/integrations.md): their secrets in the secrets' box, sales through the conversions. */
export function integrationsOf(base: Base, deps: { sealKeys: SealKeys; conversions: ConversionService }) {
  const { storage, clock } = base;
  const box = new SecretBox(deps.sealKeys);
  return new IntegrationsService({
    store: new SqlIntegrationStore(storage.db, box),
    unit: unitOfWorkOn(storage.db, (trx) => ({
      store: new SqlIntegrationStore(trx, box),
      audit: new SqlAuditLog(trx),
    })),
    conversions: deps.conversions,
    clock,
  });
}
