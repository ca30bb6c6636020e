import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { Account } from '../../../src/core/accounts/account.ts';
import type { Harness } from '../../support/harness.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Person {
  id: number;
  email: string;
  /** The key of their personal workspace (every scope). */
  key: string;
}

export async function makeWorkspace(h: Harness, owner: Person, name = 'Team'): Promise<Json> {
  const res = await h.request('POST', '/api/v1/workspaces', { key: owner.key, json: { name } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** Invites the person with the role and accepts with their own key: a member. */
export async function addMember(
  h: Harness,
  owner: Person,
  workspaceId: number,
  person: Person,
  role: string,
): Promise<void> {
  const invited = await h.request('POST', `/api/v1/workspaces/${workspaceId}/invitations`, {
    key: owner.key,
    json: { email: person.email, role },
  });
  assert.equal(invited.status, 201, invited.text);
  const accepted = await h.request('POST', `/api/v1/invitations/${invited.body.data.token}/accept`, {
    key: person.key,
  });
  assert.equal(accepted.status, 200, accepted.text);
}

/** A key of the person in the workspace; scopes null: all the role allows. */
export async function makeKey(
  h: Harness,
  person: Person,
  workspaceId: number,
  scopes: string[] | null = null,
  expiresAt?: string,
): Promise<string> {
  const res = await h.request('POST', `/api/v1/workspaces/${workspaceId}/api-keys`, {
    key: person.key,
    json: { name: 'k', scopes, ...(expiresAt ? { expires_at: expiresAt } : {}) },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data.key;
}

/** Turns two-factor on for the person through the service the web page uses (the API has no enrolment). */
export async function enrolTwoFactor(h: Harness, person: Person): Promise<void> {
  const { twoFactor } = h.server.container.security;
  const account = { id: person.id, email: person.email } as Account;
  const { secret } = await twoFactor.begin(account);
  await twoFactor.confirm(
    account,
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: h.server.container.clock.now() }),
  );
}
