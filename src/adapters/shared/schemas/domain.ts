import { Type, type Static } from '@sinclair/typebox';
import { URL_MAX_LENGTH } from '../../../core/links/url-policy.ts';
import { Enum, Nullable, PageQuery, SortQuery, Timestamp } from './common.ts';

export const DomainRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    index_page: Nullable(Type.String()),
    not_found_page: Nullable(Type.String()),
    apple_app_site_association: Nullable(
      Type.Object(
        {},
        { additionalProperties: true, description: 'Served at /.well-known/apple-app-site-association on the domain' },
      ),
    ),
    assetlinks: Nullable(
      Type.Array(Type.Unknown(), { description: 'Served at /.well-known/assetlinks.json on the domain' }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
    status: Enum(['pending', 'verified'] as const, {
      description: 'pending: serves no links until control of the name is proved (POST /api/v1/domains/{id}/verify)',
    }),
    verified_at: Nullable(Timestamp),
    verification: Type.Object(
      {
        token: Type.String({ description: 'Publish it in either place below' }),
        txt_name: Type.String({
          description: 'DNS name of a TXT record whose text is the token, e.g. _linkpix.go.example.com',
        }),
        file_url: Type.String({ description: 'URL of a file whose body is the token' }),
      },
      { description: 'How to prove control of the name' },
    ),
  },
  { title: 'Domain' },
);

export const DomainBody = Type.Object({
  name: Type.Optional(
    Type.String({ maxLength: 253, description: 'Host name, e.g. go.example.com; unique across the service' }),
  ),
  index_page: Type.Optional(
    Nullable(Type.String({ maxLength: URL_MAX_LENGTH, description: "Where the domain's root redirects" })),
  ),
  not_found_page: Type.Optional(
    Nullable(Type.String({ maxLength: URL_MAX_LENGTH, description: 'Where an unknown alias redirects' })),
  ),
  // The core checks their shape (core/domains/app-site-files.ts), naming the field in its 422.
  apple_app_site_association: Type.Optional(
    Type.Unknown({
      description:
        'An apple-app-site-association object (applinks, webcredentials, appclips), its JSON text, or null to remove it',
    }),
  ),
  assetlinks: Type.Optional(
    Type.Unknown({
      description: 'A Digital Asset Links statement list (assetlinks.json), its JSON text, or null to remove it',
    }),
  ),
});
export type DomainBody = Static<typeof DomainBody>;

/** Verifying takes no fields; a body, if sent, is ignored. */
export const DomainVerifyBody = Type.Object({}, { description: 'No fields' });

export const DomainListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive text in the host name' })),
  sort: SortQuery,
  ...PageQuery,
});
export type DomainListQuery = Static<typeof DomainListQuery>;
