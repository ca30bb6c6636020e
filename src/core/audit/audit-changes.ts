import type { AuditChanges } from './audit-entry.ts';

/** Fields whose values never enter the log (passwords, tokens, key values, webhook secrets): only that they changed. */
const SECRET = /password|secret|token|hash|api_?key/i;

/** Kept out of every diff: the record's own bookkeeping, not a change anyone made. */
const BOOKKEEPING = new Set(['id', 'accountId', 'createdAt', 'updatedAt', 'clicks', 'lastRotation', 'workspaceId']);

/** The API's name of a field: snake case, a stored hash named for what it keeps (`password_hash` → `password`). */
function apiName(name: string): string {
  return name.replace(/Hash$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The fields that differ between two states of a record, by their API names; `before` null: a
 * creation (every set field, from null), `after` null: a deletion (every field, to null).
 */
export function changesOf(before: object | null, after: object | null): AuditChanges {
  const was = (before ?? {}) as Record<string, unknown>;
  const now = (after ?? {}) as Record<string, unknown>;
  const out: AuditChanges = {};
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (BOOKKEEPING.has(key)) continue;
    const old = was[key] ?? null;
    const next = now[key] ?? null;
    if (same(old, next)) continue;
    out[apiName(key)] = SECRET.test(key) ? 'changed' : [old, next];
  }
  return out;
}
