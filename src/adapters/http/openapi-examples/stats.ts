import type { AreaDocs } from './area.ts';
import { page } from './envelopes.ts';
import { STATS_ENTRY } from './records.ts';
import { CONVERSION_RESULTS } from './conversions.ts';

export const statsDocs: AreaDocs = {
  tag: 'Statistics',
  operations: {
    'GET /api/v1/stats/{id}/export': {
      operationId: 'exportLinkClicks',
      summary: "Export a link's click rows as CSV",
      response:
        'id,at,country,city,browser,platform,device,language,referrer_host,bot\n901,2026-03-02T10:15:00Z,US,Boston,Chrome,macOS,desktop,en,news.example,0\n',
    },
    'GET /api/v1/stats/{id}': {
      operationId: 'getLinkStats',
      summary: "Read a link's statistics",
      response: {
        ...page('/api/v1/stats/7', [STATS_ENTRY, { value: 'DE', count: 12 }]),
        stats: {
          name: 'country',
          from: '2026-03-01',
          to: '2026-03-07',
          timezone: 'UTC',
          total: 54,
          unique: 41,
          bots: 3,
        },
      },
      otherResponses: {
        conversions: { summary: 'name=conversions: results per rule and split variant', value: CONVERSION_RESULTS },
      },
    },
    'GET /api/v1/workspaces/{id}/stats': {
      operationId: 'getWorkspaceStats',
      summary: "Read a workspace's statistics across its links",
      response: {
        ...page('/api/v1/workspaces/7/stats', [
          { value: 'Launch', count: 120 },
          { value: 'Q3', count: 75 },
          { value: null, count: 9 },
        ]),
        stats: { name: 'tags', from: '2026-03-01', to: '2026-03-07', timezone: 'UTC', total: 180 },
      },
    },
  },
};
