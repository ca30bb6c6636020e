import type { AuditEntry } from '../../../core/audit/audit-entry.ts';
import { csvChunks } from '../csv/csv.ts';

/** An audit entry as the API and its CSV show it (docs/api.md, the audit log). */
export function auditRecord(e: AuditEntry) {
  return {
    id: e.id,
    at: new Date(e.at).toISOString(),
    actor: { user_id: e.actor.userId, name: e.actorName },
    key: e.actor.keyId === null ? null : { id: e.actor.keyId, name: e.keyName },
    via: e.actor.via,
    action: e.action,
    target: { type: e.target.type, id: e.target.id },
    changes: e.changes,
  };
}

const COLUMNS = [
  'id',
  'at',
  'actor_user_id',
  'actor_name',
  'key_id',
  'key_name',
  'via',
  'action',
  'target_type',
  'target_id',
  'changes',
] as const;

/** The entries as CSV, a chunk at a time; `changes` as its JSON text. */
export function auditCsv(chunks: AsyncIterable<readonly AuditEntry[]>): AsyncGenerator<string> {
  return csvChunks(COLUMNS, chunks, (e) => [
    e.id,
    new Date(e.at).toISOString(),
    e.actor.userId,
    e.actorName,
    e.actor.keyId,
    e.keyName,
    e.actor.via,
    e.action,
    e.target.type,
    e.target.id,
    JSON.stringify(e.changes),
  ]);
}
