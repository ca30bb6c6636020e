import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../../../core/audit/audit-entry.ts';
import { viewerOf } from './view.ts';

/** Who a change through the web app is from, for its audit entry: the session's person (a personal workspace shares its id). */
export function webActor(request: FastifyRequest): AuditActor {
  return { userId: viewerOf(request).account.id, keyId: null, via: 'web' };
}
