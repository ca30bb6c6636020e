import type { AreaDocs } from './area.ts';
import { deleted } from './envelopes.ts';
import { WEBHOOK, CREATED_WEBHOOK, WEBHOOK_DELIVERY } from './records.ts';

export const webhooksDocs: AreaDocs = {
  tag: 'Webhooks',
  operations: {
    'GET /api/v1/webhooks': {
      operationId: 'listWebhooks',
      summary: 'List webhooks',
      response: { data: [WEBHOOK], status: 200 },
    },
    'POST /api/v1/webhooks': {
      operationId: 'createWebhook',
      summary: 'Create a webhook',
      request: {
        url: 'https://hooks.example.com/linkpix',
        events: ['link.created'],
      },
      response: { data: CREATED_WEBHOOK, status: 201 },
    },
    'GET /api/v1/webhooks/{id}': {
      operationId: 'getWebhook',
      summary: 'Read a webhook',
      response: { data: WEBHOOK, status: 200 },
    },
    'PATCH /api/v1/webhooks/{id}': {
      operationId: 'updateWebhook',
      summary: 'Change a webhook',
      request: { format: 'slack', enabled: true },
      response: {
        data: { ...WEBHOOK, format: 'slack', enabled: true, disabled_at: null, failing_since: null },
        status: 200,
      },
    },
    'GET /api/v1/webhooks/sample': {
      operationId: 'getWebhookSample',
      summary: 'Read a sample delivery of an event',
      response: { data: WEBHOOK_DELIVERY, status: 200 },
    },
    'DELETE /api/v1/webhooks/{id}': {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      response: deleted('webhook'),
    },
  },
};
