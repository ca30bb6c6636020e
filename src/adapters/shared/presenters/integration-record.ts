import type { Integration } from '../../../core/integrations/integration.ts';
import { iso } from './records.ts';

/** Where the sender posts: under /api/integrations, outside key auth (docs/api.md, Integrations). */
export const endpointUrl = (appUrl: string, token: string) => `${appUrl}/api/integrations/${token}`;

/** An integration as the API and the web app show it: never its secret. */
export function integrationRecord(integration: Integration, appUrl: string) {
  return {
    id: integration.id,
    type: integration.type,
    endpoint_url: endpointUrl(appUrl, integration.token),
    created_at: iso(integration.createdAt),
  };
}
