import { Type, type Static } from '@sinclair/typebox';
import { URL_MAX_LENGTH } from '../../../core/links/url-policy.ts';
import { Nullable, PageQuery, SortQuery, Timestamp } from './common.ts';

export const DomainRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  index_page: Nullable(Type.String()),
  not_found_page: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
}, { title: 'Domain' });

export const DomainBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 253, description: 'Host name, e.g. go.example.com; unique across the service' })),
  index_page: Type.Optional(Nullable(Type.String({ maxLength: URL_MAX_LENGTH, description: "Where the domain's root redirects" }))),
  not_found_page: Type.Optional(Nullable(Type.String({ maxLength: URL_MAX_LENGTH, description: 'Where an unknown alias redirects' }))),
});
export type DomainBody = Static<typeof DomainBody>;

export const DomainListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive text in the host name' })),
  sort: SortQuery,
  ...PageQuery,
});
export type DomainListQuery = Static<typeof DomainListQuery>;
