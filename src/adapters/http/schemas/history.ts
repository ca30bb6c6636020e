import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_VIA } from '../../../core/audit/audit-entry.ts';
import { Enum, Id, Nullable, PageQuery, Timestamp } from '../../shared/schemas/common.ts';

export const LinkVersionRecord = Type.Object(
  {
    version: Type.Integer({ description: 'From 1, the link’s first state' }),
    at: Timestamp,
    actor: Type.Object(
      { user_id: Nullable(Type.Integer()), name: Nullable(Type.String()) },
      { description: 'user_id null: the operator (the CLI, or the migration that made version 1)' },
    ),
    via: Enum(AUDIT_VIA),
    restored_from: Nullable(Type.Integer({ description: 'The version a restore brought back' })),
    changes: Type.Record(Type.String(), Type.Unknown(), {
      description: '{"field": [old, new]} against the version before; a secret\'s value is "changed"',
    }),
  },
  { title: 'LinkVersion' },
);

export const HistoryQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export type HistoryQuery = Static<typeof HistoryQuery>;

export const VersionParams = Type.Object({ id: Id('Link id'), version: Id('Version') });
export type VersionParams = Static<typeof VersionParams>;
