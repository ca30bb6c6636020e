import type { AreaDocs } from './area.ts';
import { deleted } from './envelopes.ts';
import { WEBHOOK, CREATED_WEBHOOK } from './records.ts';

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
    'DELETE /api/v1/webhooks/{id}': {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      response: deleted('webhook'),
    },
  },
};
