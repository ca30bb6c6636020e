/**
 * Helpers of the web workspaces suites (not a test file: the runner picks *.test.ts only).
 */
import assert from 'node:assert/strict';
import { signedUp, type WebClient, type WebReply } from '../../support/web-client.ts';

export interface WebPerson {
  client: WebClient;
  email: string;
}

export async function webPerson(baseUrl: string): Promise<WebPerson> {
  return signedUp(baseUrl);
}

/** Makes a team workspace on /account/workspaces (it becomes the current one); returns its id. */
export async function webWorkspace(owner: WebPerson, name: string): Promise<number> {
  const made = await owner.client.post('/account/workspaces', { name }, { from: '/account/workspaces' });
  assert.equal(made.status, 303, made.text.slice(0, 500));
  const id = Number(/^\/account\/workspaces\/(\d+)$/.exec(made.location ?? '')?.[1]);
  assert.ok(id > 0, `made: ${made.location}`);
  return id;
}

/** Invites on the workspace's page; returns the accept link's token, shown once. */
export async function webInvite(owner: WebPerson, workspaceId: number, email: string, role: string): Promise<string> {
  const page = `/account/workspaces/${workspaceId}`;
  const reply = await owner.client.post(`${page}/invitations`, { email, role }, { from: page });
  assert.equal(reply.status, 200, reply.text.slice(0, 500));
  const token = /id="made-invitation"[^>]*value="[^"]*\/signup\/invitation\/([A-Za-z0-9_-]{43})"/.exec(reply.text)?.[1];
  assert.ok(token, 'the accept link is on the page');
  return token;
}

/** Joins through the invitation page (which makes the workspace the current one). */
export async function webJoin(person: WebPerson, token: string): Promise<WebReply> {
  const path = `/signup/invitation/${token}`;
  return person.client.post(path, {}, { from: path });
}

/** A workspace with a member of each role, each signed in with it as the current workspace. */
export async function webCast(
  baseUrl: string,
  name: string,
): Promise<{ workspaceId: number; people: Record<'owner' | 'admin' | 'editor' | 'viewer', WebPerson> }> {
  const owner = await webPerson(baseUrl);
  const workspaceId = await webWorkspace(owner, name);
  const people = { owner } as Record<'owner' | 'admin' | 'editor' | 'viewer', WebPerson>;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const person = await webPerson(baseUrl);
    const joined = await webJoin(person, await webInvite(owner, workspaceId, person.email, role));
    assert.equal(joined.status, 303, joined.text.slice(0, 500));
    people[role] = person;
  }
  return { workspaceId, people };
}
