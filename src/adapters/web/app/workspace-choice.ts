import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const COOKIE = 'lpx_ws';

function signature(secret: string, sessionToken: string, workspaceId: number): string {
  return createHmac('sha256', secret).update(`workspace:${sessionToken}:${workspaceId}`).digest('base64url');
}

function cookieOptions(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

/**
 * The workspace this browser's session chose (docs/design/web.md), or null. The cookie is signed for
 * its session: one made for another session, or edited, counts as no choice. It is only a
 * choice: membership and role are read from the database on every request.
 */
export function chosenWorkspaceOf(request: FastifyRequest, secret: string, sessionToken: string): number | null {
  const value = request.cookies[COOKIE];
  const match = value === undefined ? null : /^(\d{1,10})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const id = Number(match[1]);
  const expected = Buffer.from(signature(secret, sessionToken, id));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

export function chooseWorkspace(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  sessionToken: string,
  workspaceId: number,
): void {
  reply.setCookie(COOKIE, `${workspaceId}.${signature(secret, sessionToken, workspaceId)}`, cookieOptions(request));
}

export function forgetWorkspace(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(COOKIE, cookieOptions(request));
}
