import { Type, type Static } from '@sinclair/typebox';
import { ROLES, SCOPES } from '../../../core/workspaces/policy.ts';
import { Enum, Id, Nullable, Timestamp } from '../../shared/schemas/common.ts';

const Role = Enum(ROLES, { description: 'viewer < editor < admin < owner' });
const Scope = Enum(SCOPES);

export const WorkspaceRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    role: Role,
    personal: Type.Boolean(),
    require_2fa: Type.Boolean(),
    timezone: Type.String(),
    created_at: Timestamp,
  },
  { title: 'Workspace' },
);

export const WorkspaceCreateBody = Type.Object(
  {
    name: Type.String({ maxLength: 1000 }),
    timezone: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type WorkspaceCreateBody = Static<typeof WorkspaceCreateBody>;

export const WorkspaceUpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    require_2fa: Type.Optional(Type.Boolean()),
    timezone: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type WorkspaceUpdateBody = Static<typeof WorkspaceUpdateBody>;

export const WorkspaceParams = Type.Object({ id: Id('Workspace id') });
export type WorkspaceParams = Static<typeof WorkspaceParams>;
export const MemberParams = Type.Object({ id: Id('Workspace id'), user_id: Id('User id') });
export type MemberParams = Static<typeof MemberParams>;
export const InvitationParams = Type.Object({ id: Id('Workspace id'), invitation_id: Id('Invitation id') });
export type InvitationParams = Static<typeof InvitationParams>;
export const KeyParams = Type.Object({ id: Id('Workspace id'), key_id: Id('Key id') });
export type KeyParams = Static<typeof KeyParams>;
export const TokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) });
export type TokenParams = Static<typeof TokenParams>;

export const MemberRecord = Type.Object(
  {
    user_id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    role: Role,
    two_factor: Type.Boolean({ description: 'Whether the member signs in with a second factor' }),
    joined_at: Timestamp,
  },
  { title: 'Member' },
);

export const RoleBody = Type.Object({ role: Type.String({ maxLength: 16 }) }, { additionalProperties: false });
export type RoleBody = Static<typeof RoleBody>;

export const InvitationRecord = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    role: Role,
    created_at: Timestamp,
    expires_at: Timestamp,
    expired: Type.Boolean(),
  },
  { title: 'Invitation' },
);
export const CreatedInvitationRecord = Type.Intersect(
  [
    InvitationRecord,
    Type.Object({
      token: Type.String({ description: 'Shown in this answer only' }),
      accept_url: Type.String(),
      mailed: Type.Boolean({
        description:
          'Whether the invitation was mailed (SMTP_URL set and the mail server took it); the invitation stands either way',
      }),
    }),
  ],
  { title: 'CreatedInvitation' },
);

export const InvitationBody = Type.Object(
  { email: Type.String({ maxLength: 1000 }), role: Type.String({ maxLength: 16 }) },
  { additionalProperties: false },
);
export type InvitationBody = Static<typeof InvitationBody>;

export const AcceptBody = Type.Object({}, { description: 'No fields' });

export const AcceptedRecord = Type.Object(
  { workspace_id: Type.Integer(), role: Role },
  { title: 'AcceptedInvitation' },
);

export const WorkspaceKeyRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Nullable(Type.String()),
    prefix: Type.String(),
    scopes: Nullable(Type.Array(Scope, { description: 'null: every scope the role allows' })),
    expires_at: Nullable(Timestamp),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    revoked_at: Nullable(Timestamp),
    user: Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() }),
  },
  { title: 'WorkspaceKey' },
);
export const CreatedKeyRecord = Type.Intersect(
  [WorkspaceKeyRecord, Type.Object({ key: Type.String({ description: 'Shown in this answer only' }) })],
  {
    title: 'CreatedWorkspaceKey',
  },
);

export const KeyBody = Type.Object(
  {
    name: Type.String({ maxLength: 1000 }),
    scopes: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 32 }))),
    expires_at: Type.Optional(Nullable(Timestamp)),
  },
  { additionalProperties: false },
);
export type KeyBody = Static<typeof KeyBody>;
