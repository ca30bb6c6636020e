import type { AreaDocs } from './area.ts';
import { deleted, page } from './envelopes.ts';
import { DOMAIN } from './records.ts';

export const domainsDocs: AreaDocs = {
  tag: 'Domains',
  operations: {
    'GET /api/v1/domains': {
      operationId: 'listDomains',
      summary: 'List domains',
      response: page('/api/v1/domains', [DOMAIN]),
    },
    'POST /api/v1/domains': {
      operationId: 'createDomain',
      summary: 'Create a domain',
      request: {
        name: 'go.brand.example',
        index_page: 'https://brand.example/',
        not_found_page: 'https://brand.example/404',
        apple_app_site_association: null,
        assetlinks: null,
      },
      response: { data: DOMAIN, status: 201 },
    },
    'GET /api/v1/domains/{id}': {
      operationId: 'getDomain',
      summary: 'Read a domain',
      response: { data: DOMAIN, status: 200 },
    },
    'PUT /api/v1/domains/{id}': {
      operationId: 'updateDomain',
      summary: 'Update a domain',
      request: {
        name: 'go.brand.example',
        index_page: 'https://brand.example/',
        not_found_page: 'https://brand.example/404',
        apple_app_site_association: null,
        assetlinks: null,
      },
      response: { data: DOMAIN, status: 200 },
    },
    'PATCH /api/v1/domains/{id}': {
      operationId: 'patchDomain',
      summary: 'Update a domain',
      request: {
        name: 'go.brand.example',
        index_page: 'https://brand.example/',
        not_found_page: 'https://brand.example/404',
        apple_app_site_association: null,
        assetlinks: null,
      },
      response: { data: DOMAIN, status: 200 },
    },
    'DELETE /api/v1/domains/{id}': {
      operationId: 'deleteDomain',
      summary: 'Delete a domain',
      response: deleted('domain'),
    },
    'DELETE /domains/{id}/destroy': {
      operationId: 'destroyDomain',
      summary: 'Delete a domain (seed path)',
      response: deleted('domain'),
    },
    'POST /api/v1/domains/{id}/verify': {
      operationId: 'verifyDomain',
      summary: "Verify a domain's token and make it serve",
      request: {},
      response: { data: DOMAIN, status: 200 },
    },
  },
};
