import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_VIA } from '../../../core/audit/audit-entry.ts';
import { SCHEDULE_STATUSES } from '../../../core/links/link-schedules.ts';
import { Enum, Id, Nullable, PageQuery, Timestamp } from '../../shared/schemas/common.ts';
import { LinkBody } from '../../shared/schemas/link.ts';

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

export const ScheduleBody = Type.Object(
  {
    at: Type.String({ maxLength: 40, description: 'ISO-8601 instant with its offset, in the future' }),
    changes: LinkBody,
  },
  { additionalProperties: false },
);
export type ScheduleBody = Static<typeof ScheduleBody>;

export const ScheduleRecord = Type.Object(
  {
    id: Type.Integer(),
    at: Timestamp,
    changes: Type.Record(Type.String(), Type.Unknown(), { description: 'The update’s fields, as sent' }),
    status: Enum(SCHEDULE_STATUSES),
    reason: Nullable(Type.String({ description: 'Why a failed schedule failed' })),
  },
  { title: 'LinkSchedule' },
);

export const ScheduleParams = Type.Object({ id: Id('Link id'), sid: Id('Schedule id') });
export type ScheduleParams = Static<typeof ScheduleParams>;
