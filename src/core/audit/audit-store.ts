import type { Page, PageRequest } from '../shared/page.ts';
import type { AuditEntry, AuditFilter, NewAuditEntry } from './audit-entry.ts';

/** Where changes are written: built on the change's own transaction, so an entry commits with its change or not at all. */
export interface AuditLog {
  record(entries: readonly NewAuditEntry[]): Promise<void>;
}

export interface AuditStore {
  /** Newest first (then by id, descending). */
  list(workspaceId: number, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEntry>>;
  /** Up to `limit` entries older than the entry `beforeId` (null: from the newest), newest first: the CSV's chunks. */
  listBefore(workspaceId: number, filter: AuditFilter, beforeId: number | null, limit: number): Promise<AuditEntry[]>;
  /** Deletes entries written before `before` (epoch ms); answers how many went. */
  prune(before: number): Promise<number>;
}
