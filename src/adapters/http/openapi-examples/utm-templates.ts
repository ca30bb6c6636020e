import type { AreaDocs } from './area.ts';
import { deleted, page } from './envelopes.ts';
import { UTM_TEMPLATE } from './records.ts';

export const utmTemplatesDocs: AreaDocs = {
  tag: 'UTM templates',
  operations: {
    'GET /api/v1/utm-templates': {
      operationId: 'listUtmTemplates',
      summary: 'List UTM templates',
      response: page('/api/v1/utm-templates', [UTM_TEMPLATE]),
    },
    'POST /api/v1/utm-templates': {
      operationId: 'createUtmTemplate',
      summary: 'Create a UTM template',
      request: {
        name: 'Newsletter',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'spring-sale',
        utm_term: 'shoes',
        utm_content: 'header',
      },
      response: { data: UTM_TEMPLATE, status: 201 },
    },
    'GET /api/v1/utm-templates/{id}': {
      operationId: 'getUtmTemplate',
      summary: 'Read a UTM template',
      response: { data: UTM_TEMPLATE, status: 200 },
    },
    'PUT /api/v1/utm-templates/{id}': {
      operationId: 'updateUtmTemplate',
      summary: 'Update a UTM template',
      request: {
        name: 'Newsletter',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'spring-sale',
        utm_term: 'shoes',
        utm_content: 'header',
      },
      response: { data: UTM_TEMPLATE, status: 200 },
    },
    'DELETE /api/v1/utm-templates/{id}': {
      operationId: 'deleteUtmTemplate',
      summary: 'Delete a UTM template',
      response: deleted('utm_template'),
    },
  },
};
