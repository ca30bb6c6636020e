import type { AreaDocs } from './area.ts';
import { deleted, page } from './envelopes.ts';
import { LINK_CHANGE, LINK_INPUT, EXPLANATION, RULESPREVIEW, LINK_VERSION, LINK, LINK_SCHEDULE } from './records.ts';

export const linksDocs: AreaDocs = {
  tag: 'Links',
  operations: {
    'POST /api/v1/links/bulk': {
      operationId: 'createLinksInBulk',
      summary: 'Create up to 1 000 links at once',
      request: {
        links: [LINK_INPUT],
      },
      response: {
        data: [
          {
            status: 201,
            data: LINK,
          },
        ],
        status: 200,
      },
    },
    'PATCH /api/v1/links/bulk': {
      operationId: 'changeLinksInBulk',
      summary: 'Change many links at once',
      request: { action: 'move', ids: [7, 8], space: 3 },
      response: {
        data: {
          count: 1,
        },
        status: 200,
      },
    },
    'DELETE /api/v1/links/bulk': {
      operationId: 'deleteLinksInBulk',
      summary: 'Delete many links at once',
      request: { ids: [7, 8] },
      response: {
        data: {
          count: 1,
        },
        status: 200,
      },
    },
    'GET /api/v1/links/export': {
      operationId: 'exportLinks',
      summary: 'Export the matching links as CSV or JSON',
      response: {
        format: 'linkpix.links',
        version: 2,
        links: [{ alias: 'spring', url: 'https://shop.example.com/sale' }],
      },
    },
    'GET /api/v1/links/{id}/explain': {
      operationId: 'explainVisit',
      summary: 'Explain where a visitor would go and why',
      response: { data: EXPLANATION, status: 200 },
    },
    'POST /api/v1/links/{id}/rules/preview': {
      operationId: 'previewLinkRules',
      summary: 'Preview draft rules against stored clicks',
      request: {
        rules: [],
      },
      response: { data: RULESPREVIEW, status: 200 },
    },
    'GET /api/v1/links/{id}/history': {
      operationId: 'listLinkHistory',
      summary: "List a link's versions, newest first",
      response: page('/api/v1/links/7/history', [LINK_VERSION]),
    },
    'POST /api/v1/links/{id}/history/{version}/restore': {
      operationId: 'restoreLinkVersion',
      summary: 'Restore a link as it stood at a version',
      request: {},
      response: { data: LINK, warnings: [], status: 200 },
    },
    'POST /api/v1/links/{id}/schedule': {
      operationId: 'scheduleLinkChange',
      summary: 'Schedule a change of a link',
      request: {
        at: '2026-04-01T07:00:00Z',
        changes: LINK_CHANGE,
      },
      response: { data: LINK_SCHEDULE, status: 201 },
    },
    'GET /api/v1/links/{id}/schedule': {
      operationId: 'listLinkSchedule',
      summary: "List a link's scheduled changes",
      response: page('/api/v1/links/7/schedule', [LINK_SCHEDULE]),
    },
    'DELETE /api/v1/links/{id}/schedule/{sid}': {
      operationId: 'cancelScheduledChange',
      summary: 'Cancel a pending scheduled change',
      response: { data: LINK_SCHEDULE, status: 200 },
    },
    'POST /api/v1/links/{id}/rules/{index}/winner': {
      operationId: 'pickSplitWinner',
      summary: 'End a split test with the chosen variant',
      request: {
        variant: 0,
      },
      response: { data: LINK, warnings: [], status: 200 },
    },
    'GET /api/v1/links': {
      operationId: 'listLinks',
      summary: 'List links',
      response: page('/api/v1/links', [LINK]),
    },
    'POST /api/v1/links': {
      operationId: 'createLink',
      summary: 'Create a link',
      request: LINK_INPUT,
      response: { data: LINK, warnings: [], status: 201 },
    },
    'GET /api/v1/links/{id}': {
      operationId: 'getLink',
      summary: 'Read a link',
      response: { data: LINK, status: 200 },
    },
    'PUT /api/v1/links/{id}': {
      operationId: 'updateLink',
      summary: 'Update a link',
      request: LINK_CHANGE,
      response: { data: LINK, warnings: [], status: 200 },
    },
    'PATCH /api/v1/links/{id}': {
      operationId: 'patchLink',
      summary: 'Update a link',
      request: LINK_CHANGE,
      response: { data: LINK, warnings: [], status: 200 },
    },
    'DELETE /api/v1/links/{id}': {
      operationId: 'deleteLink',
      summary: 'Delete a link',
      response: deleted('link'),
    },
    'DELETE /links/{id}/destroy': {
      operationId: 'destroyLink',
      summary: 'Delete a link (seed path)',
      response: deleted('link'),
    },
    'POST /api/v1/links/{id}/check': {
      operationId: 'checkLinkDestination',
      summary: "Check a link's destination now",
      request: {},
      response: { data: LINK, status: 200 },
    },
    'GET /api/v1/links/{id}/qr': {
      operationId: 'getLinkQrCode',
      summary: "Get the QR code of a link's short URL",
      response:
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29" shape-rendering="crispEdges"><path d="M4 4h7v7H4z"/></svg>',
    },
    'POST /api/v1/links/import': {
      operationId: 'importLinks',
      summary: 'Import links from a file',
      request: {
        file: 'alias,url,title,tags,notes\nspring,https://shop.example.com/sale,Spring sale,"sale, spring",For the newsletter\n',
      },
      response: {
        data: {
          format: 'csv',
          columns: {
            url: 'url',
            alias: 'alias',
            title: 'title',
            space: null,
            domain: null,
            expiration_date: null,
            expiration_time: null,
            expiration_clicks: null,
            expiration_url: null,
            disabled: null,
            password: null,
            tags: 'tags',
          },
          ignored_columns: ['notes'],
          warnings: [],
          dry_run: false,
          counts: { created: 1, replaced: 0, renamed: 0, skipped: 0, error: 0 },
          random_aliases: 0,
          rows: [],
          rows_omitted: 0,
        },
        status: 200,
      },
    },
    'PUT /api/v1/links/{id}/qr-logo': {
      operationId: 'setLinkQrLogo',
      summary: "Set the logo of a link's QR code",
      request: {
        logo: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4"/></svg>',
      },
      response: {
        data: {
          id: 7,
          logo: {
            type: 'png',
            bytes: 1,
          },
        },
        status: 200,
      },
    },
    'DELETE /api/v1/links/{id}/qr-logo': {
      operationId: 'removeLinkQrLogo',
      summary: "Remove the logo of a link's QR code",
      response: deleted('qr_logo'),
    },
    'PUT /api/v1/links/{id}/social-card/image': {
      operationId: 'setLinkSocialCardImage',
      summary: "Upload the image of a link's social card",
      request: { image: '(the PNG file)' },
      response: {
        data: {
          ...LINK,
          social_card: {
            ...LINK.social_card,
            image: 'https://lpx.example/public/cards/7/3f9a1c0b7d2e4a68.png',
          },
        },
        status: 200,
      },
    },
    'DELETE /api/v1/links/{id}/social-card/image': {
      operationId: 'removeLinkSocialCardImage',
      summary: "Remove the uploaded image of a link's social card",
      response: deleted('social_card_image'),
    },
  },
};
