import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Cookie names follow the request's scheme: over HTTPS the `__Host-` prefix (the browser then
 * insists on Secure, Path=/ and no Domain), over plain http (a laptop's localhost) a name
 * without it, since browsers refuse `__Host-` cookies that are not Secure.
 */
function named(request: FastifyRequest, base: string): string {
  return request.protocol === 'https' ? `__Host-${base}` : base;
}

const SESSION = 'lpx_session';
const PRESESSION = 'lpx_pre';

function options(request: FastifyRequest, maxAgeSeconds: number | null) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    ...(maxAgeSeconds === null ? {} : { maxAge: maxAgeSeconds }),
  };
}

export function sessionTokenOf(request: FastifyRequest): string | null {
  return request.cookies[named(request, SESSION)] ?? null;
}

/** remember: the cookie outlives the browser for as long as the session; else it ends with it. */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number | null,
): void {
  reply.setCookie(named(request, SESSION), token, options(request, maxAgeSeconds));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(named(request, SESSION), options(request, null));
}

export function preSessionOf(request: FastifyRequest): string | null {
  return request.cookies[named(request, PRESESSION)] ?? null;
}

export function setPreSessionCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(named(request, PRESESSION), value, options(request, null));
}

const CHALLENGE = 'lpx_2fa';

/** The half-signed-in state between the password and the code: opens nothing but the code's page. */
export function challengeTokenOf(request: FastifyRequest): string | null {
  return request.cookies[named(request, CHALLENGE)] ?? null;
}

export function setChallengeCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(named(request, CHALLENGE), token, options(request, maxAgeSeconds));
}

export function clearChallengeCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(named(request, CHALLENGE), options(request, null));
}

const SSO = 'lpx_sso';

/** Between leaving for the OpenID provider and coming back (SameSite=Lax: the return is a top-level GET). */
export function ssoPendingOf(request: FastifyRequest): string | null {
  return request.cookies[named(request, SSO)] ?? null;
}

export function setSsoPendingCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  value: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(named(request, SSO), value, options(request, maxAgeSeconds));
}

export function clearSsoPendingCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(named(request, SSO), options(request, null));
}
