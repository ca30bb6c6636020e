import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../../core/audit/audit-entry.ts';

/** Who a change through the API is from, for its audit entry: the key's person and the key. */
export function apiActor(request: FastifyRequest): AuditActor {
  return { userId: request.actor.userId, keyId: request.actor.keyId, via: 'api' };
}
