import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PAGE_MAX, PER_PAGE } from '../../../core/shared/page.ts';

/** `type: [T, 'null']` rather than anyOf: Ajv coerces form strings only through a plain type list. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
}

export function NullableEnum<const V extends readonly (string | number)[]>(values: V, description: string) {
  const type = typeof values[0] === 'number' ? 'integer' : 'string';
  return Type.Unsafe<V[number] | null>({ type: [type, 'null'], enum: [...values, null], description });
}

export function Enum<const V extends readonly (string | number)[]>(values: V, extra: Record<string, unknown> = {}) {
  const type = typeof values[0] === 'number' ? 'integer' : 'string';
  return Type.Unsafe<V[number]>({ type, enum: [...values], ...extra });
}

/** Ids are 32-bit on both engines: a larger number names no record and must never reach SQL. */
export const ID_MAX = 2_147_483_647;

export function Id(description?: string) {
  return Type.Integer({ minimum: 1, maximum: ID_MAX, ...(description === undefined ? {} : { description }) });
}

export const IdParams = Type.Object({ id: Id('Record id') });
export type IdParams = Static<typeof IdParams>;

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO-8601, UTC' });

export const PageQuery = {
  page: Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1, description: `Page number, from 1 to ${PAGE_MAX}` }),
  per_page: Type.Integer({
    minimum: PER_PAGE.min,
    maximum: PER_PAGE.max,
    default: PER_PAGE.default,
    description: 'Page size, 10 to 100',
  }),
};

export const SortQuery = Enum(['desc', 'asc'] as const, {
  default: 'desc',
  description: 'desc: newest first; asc: oldest first',
});

const ErrorEnvelope = Type.Object(
  {
    message: Type.Union([Type.String(), Type.Record(Type.String(), Type.Array(Type.String()))]),
    status: Type.Integer(),
  },
  { title: 'Error', description: 'A failure; on 422 `message` maps each bad field to its messages.' },
);

export function OneEnvelope<T extends TSchema>(data: T, status: 200 | 201 = 200) {
  return Type.Object({ data, status: Type.Literal(status) });
}

const Warning = Type.Object(
  { field: Type.String({ description: 'Path of the odd field, such as rules.1' }), message: Type.String() },
  { title: 'Warning' },
);

/** A saved record with what was odd about it (allowed, likely a mistake): present only when there is something. */
export function SavedEnvelope<T extends TSchema>(data: T, status: 200 | 201) {
  return Type.Object({ data, warnings: Type.Optional(Type.Array(Warning)), status: Type.Literal(status) });
}

export function ListEnvelope<T extends TSchema>(item: T) {
  const url = Nullable(Type.String());
  return Type.Object({
    data: Type.Array(item),
    links: Type.Object({ first: Type.String(), last: Type.String(), prev: url, next: url }),
    meta: Type.Object({
      current_page: Type.Integer(),
      from: Nullable(Type.Integer()),
      last_page: Type.Integer(),
      path: Type.String(),
      per_page: Type.Integer(),
      to: Nullable(Type.Integer()),
      total: Type.Integer(),
    }),
    status: Type.Literal(200),
  });
}

export function DeletedEnvelope(object: string) {
  return Type.Object({
    id: Type.Integer(),
    object: Type.Literal(object),
    deleted: Type.Literal(true),
    status: Type.Literal(200),
  });
}

/** The failures every authenticated route may answer, for the OpenAPI document. */
export const errorResponses = {
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  415: ErrorEnvelope,
  422: ErrorEnvelope,
  429: ErrorEnvelope,
};
