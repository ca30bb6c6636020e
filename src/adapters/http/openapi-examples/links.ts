import type { AreaDocs } from './area.ts';
import { deleted, page } from './envelopes.ts';
import { EXPLANATION, RULESPREVIEW, LINK_VERSION, LINK, LINK_SCHEDULE } from './records.ts';

export const linksDocs: AreaDocs = {
  tag: 'Links',
  operations: {
    'POST /api/v1/links/bulk': {
      operationId: 'createLinksInBulk',
      summary: 'Create up to 1 000 links at once',
      request: {
        links: [
          {
            url: 'https://example.com/spring-sale',
            domain: 1,
            alias: 'spring',
            title: 'Spring sale',
            password: 'text',
            space: 1,
            pixels: [1],
            tags: ['text'],
            disabled: 0,
            track_conversions: 0,
            privacy: 0,
            privacy_password: 'text',
            expiration_url: 'https://example.com/spring-sale',
            expiration_date: 'text',
            expiration_time: 'text',
            expiration_clicks: 0,
            target_type: 0,
            country: [
              {
                key: 'text',
                value: 'abc123',
              },
            ],
            platform: [
              {
                key: 'text',
                value: 'abc123',
              },
            ],
            language: [
              {
                key: 'text',
                value: 'abc123',
              },
            ],
            rotation: [
              {
                value: 'abc123',
              },
            ],
            rules: [null],
            ios_url: 'https://example.com/spring-sale',
            android_url: 'https://example.com/spring-sale',
          },
        ],
      },
      response: {
        data: [
          {
            status: 201,
            data: {
              id: 7,
              alias: 'spring',
              url: 'https://example.com/spring-sale',
              short_url: 'https://example.com/spring-sale',
              title: 'Spring sale',
              target_type: 1,
              country_target: [
                {
                  key: 'text',
                  value: 'abc123',
                },
              ],
              platform_target: [
                {
                  key: 'text',
                  value: 'abc123',
                },
              ],
              language_target: [
                {
                  key: 'text',
                  value: 'abc123',
                },
              ],
              rotation_target: [
                {
                  value: 'abc123',
                },
              ],
              rules: [null],
              ios_url: 'https://example.com/spring-sale',
              android_url: 'https://example.com/spring-sale',
              track_conversions: 0,
              last_rotation: 1,
              disabled: 0,
              privacy: 0,
              privacy_password: false,
              password: false,
              expiration_url: 'https://example.com/spring-sale',
              expiration_clicks: 1,
              clicks: 1,
              space: {
                id: 7,
                name: 'Spring',
                color: 3,
                created_at: '2026-03-02T10:15:00Z',
                updated_at: '2026-03-02T10:15:00Z',
              },
              domain: {
                id: 7,
                name: 'Spring',
                index_page: 'text',
                not_found_page: 'text',
                apple_app_site_association: {},
                assetlinks: [null],
                created_at: '2026-03-02T10:15:00Z',
                updated_at: '2026-03-02T10:15:00Z',
                status: 'pending',
                verified_at: '2026-03-02T10:15:00Z',
                verification: {
                  token: 'text',
                  txt_name: 'text',
                  file_url: 'https://example.com/spring-sale',
                },
              },
              pixels: [
                {
                  id: 7,
                  name: 'Spring',
                  type: 'adroll',
                  value: 'abc123',
                  created_at: '2026-03-02T10:15:00Z',
                  updated_at: '2026-03-02T10:15:00Z',
                },
              ],
              tags: ['text'],
              health: {
                status: 'ok',
                code: 1,
                reason: 'status',
                checked_at: '2026-03-02T10:15:00Z',
                broken_since: '2026-03-02T10:15:00Z',
              },
              ends_at: '2026-03-02T10:15:00Z',
              created_at: '2026-03-02T10:15:00Z',
              updated_at: '2026-03-02T10:15:00Z',
            },
          },
        ],
        status: 200,
      },
    },
    'PATCH /api/v1/links/bulk': {
      operationId: 'changeLinksInBulk',
      summary: 'Change many links at once',
      request: {
        action: 'move',
      },
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
      request: {
        ids: [1],
        filter: {
          search: 'text',
          by: 'title',
          status: 0,
          space: 1,
          domain: 1,
          pixel: 1,
          tag: 'text',
          health: 'ok',
        },
      },
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
      response: {},
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
        rules: [null],
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
        at: 'text',
        changes: {
          url: 'https://example.com/spring-sale',
          domain: 1,
          alias: 'spring',
          title: 'Spring sale',
          password: 'text',
          space: 1,
          pixels: [1],
          tags: ['text'],
          disabled: 0,
          track_conversions: 0,
          privacy: 0,
          privacy_password: 'text',
          expiration_url: 'https://example.com/spring-sale',
          expiration_date: 'text',
          expiration_time: 'text',
          expiration_clicks: 0,
          target_type: 0,
          country: [
            {
              key: 'text',
              value: 'abc123',
            },
          ],
          platform: [
            {
              key: 'text',
              value: 'abc123',
            },
          ],
          language: [
            {
              key: 'text',
              value: 'abc123',
            },
          ],
          rotation: [
            {
              value: 'abc123',
            },
          ],
          rules: [null],
          ios_url: 'https://example.com/spring-sale',
          android_url: 'https://example.com/spring-sale',
        },
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
      request: {
        url: 'https://example.com/spring-sale',
        domain: 1,
        alias: 'spring',
        title: 'Spring sale',
        password: 'text',
        space: 1,
        pixels: [1],
        tags: ['text'],
        disabled: 0,
        track_conversions: 0,
        privacy: 0,
        privacy_password: 'text',
        expiration_url: 'https://example.com/spring-sale',
        expiration_date: 'text',
        expiration_time: 'text',
        expiration_clicks: 0,
        target_type: 0,
        country: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        platform: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        language: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        rotation: [
          {
            value: 'abc123',
          },
        ],
        rules: [null],
        ios_url: 'https://example.com/spring-sale',
        android_url: 'https://example.com/spring-sale',
      },
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
      request: {
        url: 'https://example.com/spring-sale',
        domain: 1,
        alias: 'spring',
        title: 'Spring sale',
        password: 'text',
        space: 1,
        pixels: [1],
        tags: ['text'],
        disabled: 0,
        track_conversions: 0,
        privacy: 0,
        privacy_password: 'text',
        expiration_url: 'https://example.com/spring-sale',
        expiration_date: 'text',
        expiration_time: 'text',
        expiration_clicks: 0,
        target_type: 0,
        country: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        platform: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        language: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        rotation: [
          {
            value: 'abc123',
          },
        ],
        rules: [null],
        ios_url: 'https://example.com/spring-sale',
        android_url: 'https://example.com/spring-sale',
      },
      response: { data: LINK, warnings: [], status: 200 },
    },
    'PATCH /api/v1/links/{id}': {
      operationId: 'patchLink',
      summary: 'Update a link',
      request: {
        url: 'https://example.com/spring-sale',
        domain: 1,
        alias: 'spring',
        title: 'Spring sale',
        password: 'text',
        space: 1,
        pixels: [1],
        tags: ['text'],
        disabled: 0,
        track_conversions: 0,
        privacy: 0,
        privacy_password: 'text',
        expiration_url: 'https://example.com/spring-sale',
        expiration_date: 'text',
        expiration_time: 'text',
        expiration_clicks: 0,
        target_type: 0,
        country: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        platform: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        language: [
          {
            key: 'text',
            value: 'abc123',
          },
        ],
        rotation: [
          {
            value: 'abc123',
          },
        ],
        rules: [null],
        ios_url: 'https://example.com/spring-sale',
        android_url: 'https://example.com/spring-sale',
      },
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
      response: 'text',
    },
    'POST /api/v1/links/import': {
      operationId: 'importLinks',
      summary: 'Import links from a file',
      request: {
        file: 'text',
      },
      response: {},
    },
    'PUT /api/v1/links/{id}/qr-logo': {
      operationId: 'setLinkQrLogo',
      summary: "Set the logo of a link's QR code",
      request: {
        logo: 'text',
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
  },
};
