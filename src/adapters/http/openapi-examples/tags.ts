import type { AreaDocs } from './area.ts';
import { deleted } from './envelopes.ts';
import { TAG } from './records.ts';

export const tagsDocs: AreaDocs = {
  tag: 'Tags',
  operations: {
    'GET /api/v1/tags': {
      operationId: 'listTags',
      summary: 'List tags with their link counts',
      response: { data: [TAG], status: 200 },
    },
    'GET /api/v1/tags/{id}': {
      operationId: 'getTag',
      summary: 'Read a tag',
      response: { data: TAG, status: 200 },
    },
    'PUT /api/v1/tags/{id}': {
      operationId: 'updateTag',
      summary: 'Rename or recolour a tag',
      request: {
        name: 'newsletter',
        color: 'gray',
      },
      response: { data: TAG, status: 200 },
    },
    'PATCH /api/v1/tags/{id}': {
      operationId: 'patchTag',
      summary: 'Rename or recolour a tag',
      request: {
        name: 'newsletter',
        color: 'gray',
      },
      response: { data: TAG, status: 200 },
    },
    'DELETE /api/v1/tags/{id}': {
      operationId: 'deleteTag',
      summary: 'Delete a tag (its links stay)',
      response: deleted('tag'),
    },
  },
};
