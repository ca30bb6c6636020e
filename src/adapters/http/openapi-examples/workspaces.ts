import type { AreaDocs } from './area.ts';
import { deleted, page } from './envelopes.ts';
import {
  WORKSPACE,
  MEMBER,
  CREATED_INVITATION,
  INVITATION,
  ACCEPTED_INVITATION,
  CREATED_WORKSPACE_KEY,
  WORKSPACE_KEY,
  AUDIT_ENTRY,
} from './records.ts';

export const workspacesDocs: AreaDocs = {
  tag: 'Workspaces',
  operations: {
    'GET /api/v1/workspaces': {
      operationId: 'listWorkspaces',
      summary: "List the key's user's workspaces",
      response: { data: [WORKSPACE], status: 200 },
    },
    'POST /api/v1/workspaces': {
      operationId: 'createWorkspace',
      summary: 'Create a workspace',
      request: {
        name: 'Marketing',
      },
      response: { data: WORKSPACE, status: 201 },
    },
    'GET /api/v1/workspaces/{id}': {
      operationId: 'getWorkspace',
      summary: 'Read a workspace',
      response: { data: WORKSPACE, status: 200 },
    },
    'PUT /api/v1/workspaces/{id}': {
      operationId: 'updateWorkspace',
      summary: "Change a workspace's settings",
      request: {
        name: 'Marketing',
        require_2fa: false,
        timezone: 'Europe/Berlin',
      },
      response: { data: WORKSPACE, status: 200 },
    },
    'PATCH /api/v1/workspaces/{id}': {
      operationId: 'patchWorkspace',
      summary: "Change a workspace's settings",
      request: {
        name: 'Marketing',
        require_2fa: false,
        timezone: 'Europe/Berlin',
      },
      response: { data: WORKSPACE, status: 200 },
    },
    'DELETE /api/v1/workspaces/{id}': {
      operationId: 'deleteWorkspace',
      summary: 'Delete a team workspace',
      response: deleted('workspace'),
    },
    'GET /api/v1/workspaces/{id}/members': {
      operationId: 'listMembers',
      summary: "List a workspace's members",
      response: { data: [MEMBER], status: 200 },
    },
    'PUT /api/v1/workspaces/{id}/members/{user_id}': {
      operationId: 'changeMemberRole',
      summary: "Change a member's role",
      request: {
        role: 'editor',
      },
      response: { data: MEMBER, status: 200 },
    },
    'DELETE /api/v1/workspaces/{id}/members/{user_id}': {
      operationId: 'removeMember',
      summary: 'Remove a member, or leave',
      response: deleted('member'),
    },
    'POST /api/v1/workspaces/{id}/invitations': {
      operationId: 'inviteMember',
      summary: 'Invite someone by email',
      request: {
        email: 'ada@example.com',
        role: 'editor',
      },
      response: { data: CREATED_INVITATION, status: 201 },
    },
    'GET /api/v1/workspaces/{id}/invitations': {
      operationId: 'listInvitations',
      summary: 'List pending invitations',
      response: { data: [INVITATION], status: 200 },
    },
    'DELETE /api/v1/workspaces/{id}/invitations/{invitation_id}': {
      operationId: 'revokeInvitation',
      summary: 'Revoke an invitation',
      response: deleted('invitation'),
    },
    'POST /api/v1/invitations/{token}/accept': {
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation',
      request: {},
      response: { data: ACCEPTED_INVITATION, status: 200 },
    },
    'POST /api/v1/workspaces/{id}/api-keys': {
      operationId: 'createApiKey',
      summary: 'Create an API key in a workspace',
      request: {
        name: 'Marketing',
      },
      response: { data: CREATED_WORKSPACE_KEY, status: 201 },
    },
    'GET /api/v1/workspaces/{id}/api-keys': {
      operationId: 'listApiKeys',
      summary: "List a workspace's API keys",
      response: { data: [WORKSPACE_KEY], status: 200 },
    },
    'DELETE /api/v1/workspaces/{id}/api-keys/{key_id}': {
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      response: deleted('api_key'),
    },
    'GET /api/v1/workspaces/{id}/audit': {
      operationId: 'listAuditEntries',
      summary: "List a workspace's audit log",
      response: page('/api/v1/workspaces/7/audit', [AUDIT_ENTRY]),
    },
  },
};
