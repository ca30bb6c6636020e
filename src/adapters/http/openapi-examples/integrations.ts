import type { AreaDocs } from './area.ts';
import { deleted } from './envelopes.ts';
import { INTEGRATION } from './records.ts';

export const integrationsDocs: AreaDocs = {
  tag: 'Integrations',
  operations: {
    'GET /api/v1/integrations': {
      operationId: 'listIntegrations',
      summary: 'List Stripe and Shopify integrations',
      response: { data: [INTEGRATION], status: 200 },
    },
    'POST /api/v1/integrations': {
      operationId: 'createIntegration',
      summary: 'Create a Stripe or Shopify integration',
      request: { type: 'stripe', secret: 'whsec_5c1f0e8a2d9b47c6a3e1' },
      response: { data: INTEGRATION, status: 201 },
    },
    'DELETE /api/v1/integrations/{id}': {
      operationId: 'deleteIntegration',
      summary: 'Remove an integration',
      response: deleted('integration'),
    },
  },
};
