import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_VIA } from '../../../core/audit/audit-entry.ts';
import { Enum, Id, Nullable, PageQuery, Timestamp } from '../../shared/schemas/common.ts';

export const AuditRecord = Type.Object(
  {
    id: Type.Integer(),
    at: Timestamp,
    actor: Type.Object(
      { user_id: Nullable(Type.Integer()), name: Nullable(Type.String()) },
      { description: 'user_id null: the operator at the CLI' },
    ),
    key: Nullable(
      Type.Object(
        { id: Type.Integer(), name: Nullable(Type.String()) },
        { description: 'The API key the change came through; null: none' },
      ),
    ),
    via: Enum(AUDIT_VIA),
    action: Type.String({ description: 'link.created, member.role_changed, …' }),
    target: Type.Object({ type: Type.String(), id: Type.Integer() }),
    changes: Type.Record(Type.String(), Type.Unknown(), {
      description: '{"field": [old, new]}; a secret\'s value is "changed"',
    }),
  },
  { title: 'AuditEntry' },
);

export const AuditQuery = Type.Object(
  {
    ...PageQuery,
    actor: Type.Optional(Id('Only changes by this user')),
    action: Type.Optional(
      Type.String({ maxLength: 65, description: 'An action (link.updated), or a type for all of its actions (link)' }),
    ),
    target_type: Type.Optional(Type.String({ maxLength: 32 })),
    target_id: Type.Optional(Id('With target_type: one record')),
    from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO-8601 date or instant, inclusive' })),
    to: Type.Optional(
      Type.String({ maxLength: 40, description: 'ISO-8601 date (the whole day) or instant, exclusive' }),
    ),
    format: Type.Optional(
      Enum(['json', 'csv'] as const, {
        default: 'json',
        description: 'csv: every matching entry as a download, newest first',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;
