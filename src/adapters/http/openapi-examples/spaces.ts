import type { AreaDocs } from './area.ts';
import { deleted, page } from './envelopes.ts';
import { SPACE } from './records.ts';

export const spacesDocs: AreaDocs = {
  tag: 'Spaces',
  operations: {
    'GET /api/v1/spaces': {
      operationId: 'listSpaces',
      summary: 'List spaces',
      response: page('/api/v1/spaces', [SPACE]),
    },
    'POST /api/v1/spaces': {
      operationId: 'createSpace',
      summary: 'Create a space',
      request: {
        name: 'Campaigns',
        color: 3,
      },
      response: { data: SPACE, status: 201 },
    },
    'GET /api/v1/spaces/{id}': {
      operationId: 'getSpace',
      summary: 'Read a space',
      response: { data: SPACE, status: 200 },
    },
    'PUT /api/v1/spaces/{id}': {
      operationId: 'updateSpace',
      summary: 'Update a space',
      request: {
        name: 'Campaigns',
        color: 3,
      },
      response: { data: SPACE, status: 200 },
    },
    'PATCH /api/v1/spaces/{id}': {
      operationId: 'patchSpace',
      summary: 'Update a space',
      request: {
        name: 'Campaigns',
        color: 3,
      },
      response: { data: SPACE, status: 200 },
    },
    'DELETE /api/v1/spaces/{id}': {
      operationId: 'deleteSpace',
      summary: 'Delete a space',
      response: deleted('space'),
    },
    'DELETE /spaces/{id}/destroy': {
      operationId: 'destroySpace',
      summary: 'Delete a space (seed path)',
      response: deleted('space'),
    },
  },
};
