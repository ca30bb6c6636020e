import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { Actor } from '../workspaces/workspace.ts';
import type { WorkspacesService } from '../workspaces/workspaces-service.ts';
import type { AuditEntry } from './audit-entry.ts';
import { checkAuditFilter, type AuditFilterInput } from './audit-filter.ts';
import type { AuditStore } from './audit-store.ts';

/** The CSV reads this many entries at a time. */
const CHUNK = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Reading a workspace's audit log (admins and owners: the policy's `audit.read`), and its retention. */
export class AuditService {
  constructor(
    private readonly store: AuditStore,
    private readonly workspaces: Pick<WorkspacesService, 'require'>,
    private readonly clock: Clock,
    /** AUDIT_RETENTION_DAYS. */
    private readonly retentionDays: number,
  ) {}

  async list(actor: Actor, workspaceId: number, input: AuditFilterInput, page: PageRequest): Promise<Page<AuditEntry>> {
    const filter = checkAuditFilter(input);
    await this.workspaces.require(actor, workspaceId, 'audit.read');
    return this.store.list(workspaceId, filter, page);
  }

  /** Every entry the filters pass, newest first, a chunk at a time (checked before the first is read). */
  async entries(actor: Actor, workspaceId: number, input: AuditFilterInput): Promise<AsyncGenerator<AuditEntry[]>> {
    const filter = checkAuditFilter(input);
    await this.workspaces.require(actor, workspaceId, 'audit.read');
    const store = this.store;
    return (async function* () {
      let before: number | null = null;
      for (;;) {
        const chunk = await store.listBefore(workspaceId, filter, before, CHUNK);
        if (chunk.length > 0) yield chunk;
        if (chunk.length < CHUNK) return;
        before = chunk[chunk.length - 1]!.id;
      }
    })();
  }

  /** Deletes what is older than the retention (the periodic retention job calls it). */
  prune(): Promise<number> {
    return this.store.prune(this.clock.now() - this.retentionDays * DAY_MS);
  }
}
