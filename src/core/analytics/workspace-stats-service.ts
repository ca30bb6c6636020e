import type { Clock } from '../shared/clock.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import { resolveRange, daysOf, type DayRange } from '../stats/range.ts';
import { arrange, filled, pageOf } from '../stats/stats-service.ts';
import type { StatsOrder, StatsStore, ValueCount } from '../stats/stats-store.ts';
import type { Actor, Workspace } from '../workspaces/workspace.ts';
import type { WorkspacesService } from '../workspaces/workspaces-service.ts';
import {
  foldLinks,
  isWorkspaceStatsName,
  linkEntries,
  qrEntries,
  type LinkFacts,
  type LinkRangeCount,
  type WorkspaceStatsName,
  type WorkspaceValueCount,
} from './workspace-stats.ts';

/** Reads the workspace-level rollups only: never click rows (docs/design/statistics.md). */
export interface WorkspaceStatsStore {
  /** Each link's clicks and QR scans over the range (links without any left out). */
  linkCounts(workspaceId: number, range: DayRange): Promise<LinkRangeCount[]>;
  /** The links among `ids` still in the workspace, with their tags' and space's names. */
  linkFacts(workspaceId: number, ids: readonly number[]): Promise<LinkFacts[]>;
}

export interface WorkspaceStatsDeps {
  store: WorkspaceStatsStore;
  stats: Pick<StatsStore, 'accountPerDay'>;
  workspaces: Pick<WorkspacesService, 'require'>;
  find(workspaceId: number): Promise<Workspace | null>;
  clock: Clock;
}

export interface WorkspaceStatsQuery {
  name: string;
  from?: string | undefined;
  to?: string | undefined;
  search?: string | undefined;
  sort?: 'max' | 'min' | undefined;
  /** null: every entry (CSV). */
  page: PageRequest | null;
}

export interface WorkspaceStatsResult extends Page<WorkspaceValueCount> {
  name: WorkspaceStatsName;
  range: DayRange;
  timeZone: string;
  /** Human clicks in the range, over every link (a deleted one's included). */
  clicks: number;
}

/** A workspace's numbers across its links (the policy's `stats.read`, checked for the workspace of the path). */
export class WorkspaceStatsService {
  constructor(private readonly deps: WorkspaceStatsDeps) {}

  async query(actor: Actor, workspaceId: number, q: WorkspaceStatsQuery): Promise<WorkspaceStatsResult> {
    await this.deps.workspaces.require(actor, workspaceId, 'stats.read');
    const workspace = await this.deps.find(workspaceId);
    if (workspace === null) throw new NotFoundError('workspace');
    if (!isWorkspaceStatsName(q.name)) throw ValidationError.of('name', messages.selected('name'));
    const range = resolveRange(q, this.deps.clock.now(), workspace.timezone);
    const days = filled(daysOf(range), await this.deps.stats.accountPerDay(workspaceId, range));
    const clicks = days.reduce((sum, d) => sum + d.count, 0);
    const items = q.name === 'clicks' ? days : await this.breakdown(workspaceId, q.name, range);
    const order: StatsOrder = q.sort ?? (q.name === 'clicks' ? 'value' : 'max');
    const entries = pageOf(arrange(items, q.search, order), q.page);
    const page = q.page ?? { page: 1, perPage: Math.max(1, entries.items.length) };
    return { ...entries, ...page, name: q.name, range, timeZone: workspace.timezone, clicks };
  }

  /** One read of the links' counts in the range, then folded by what each link is now. */
  private async breakdown(
    workspaceId: number,
    name: Exclude<WorkspaceStatsName, 'clicks'>,
    range: DayRange,
  ): Promise<ValueCount[]> {
    const counts = await this.deps.store.linkCounts(workspaceId, range);
    if (name === 'qr') return qrEntries(counts);
    const facts = new Map(
      (
        await this.deps.store.linkFacts(
          workspaceId,
          counts.map((c) => c.linkId),
        )
      ).map((f) => [f.id, f]),
    );
    return name === 'links' ? linkEntries(counts, facts) : foldLinks(counts, facts, name);
  }
}
