import type { AreaDocs } from './area.ts';
import { deleted, page } from './envelopes.ts';
import { PIXEL } from './records.ts';

export const pixelsDocs: AreaDocs = {
  tag: 'Pixels',
  operations: {
    'GET /api/v1/pixels': {
      operationId: 'listPixels',
      summary: 'List pixels',
      response: page('/api/v1/pixels', [PIXEL]),
    },
    'POST /api/v1/pixels': {
      operationId: 'createPixel',
      summary: 'Create a pixel',
      request: {
        name: 'GA4',
        type: 'adroll',
        value: 'G-7XK2M9QW1B',
      },
      response: { data: PIXEL, status: 201 },
    },
    'GET /api/v1/pixels/{id}': {
      operationId: 'getPixel',
      summary: 'Read a pixel',
      response: { data: PIXEL, status: 200 },
    },
    'PUT /api/v1/pixels/{id}': {
      operationId: 'updatePixel',
      summary: 'Update a pixel',
      request: {
        name: 'GA4',
        type: 'adroll',
        value: 'G-7XK2M9QW1B',
      },
      response: { data: PIXEL, status: 200 },
    },
    'PATCH /api/v1/pixels/{id}': {
      operationId: 'patchPixel',
      summary: 'Update a pixel',
      request: {
        name: 'GA4',
        type: 'adroll',
        value: 'G-7XK2M9QW1B',
      },
      response: { data: PIXEL, status: 200 },
    },
    'DELETE /api/v1/pixels/{id}': {
      operationId: 'deletePixel',
      summary: 'Delete a pixel',
      response: deleted('pixel'),
    },
    'DELETE /pixels/{id}/destroy': {
      operationId: 'destroyPixel',
      summary: 'Delete a pixel (seed path)',
      response: deleted('pixel'),
    },
  },
};
