import type { Clock } from '../shared/clock.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { offsetOf, type Page, type PageRequest } from '../shared/page.ts';
import { resolveRange, daysOf, type DayRange } from '../stats/range.ts';
import { arrange, filled, pageOf } from '../stats/stats-service.ts';
import type { StatsOrder, StatsStore, ValueCount } from '../stats/stats-store.ts';
import type { Actor, Workspace } from '../workspaces/workspace.ts';
import type { WorkspacesService } from '../workspaces/workspaces-service.ts';
import { firstLinks, type LinkRanking } from './link-ranking.ts';
import {
  isWorkspaceStatsName,
  qrEntries,
  topOf,
  type ValueName,
  type WorkspaceStatsName,
  type WorkspaceValueCount,
} from './workspace-stats.ts';

/** Reads the workspace-level rollups only: never click rows (docs/design/statistics.md). */
export interface WorkspaceStatsStore {
  /**
   * Each value's clicks over the range, for each name asked (none: null; values without clicks
   * left out); for `qr`, value `qr` the QR scans and null every click.
   */
  valueCounts(workspaceId: number, range: DayRange, names: readonly ValueName[]): Promise<Map<ValueName, ValueCount[]>>;
  /** Each link's clicks over the range (links without any, and links deleted, left out). */
  linkRanking(workspaceId: number, range: DayRange): Promise<LinkRanking>;
  /** The aliases of the links among `ids` still in the workspace. */
  linkAliases(workspaceId: number, ids: readonly number[]): Promise<Map<number, string>>;
  /** The aliases of the workspace's links whose alias contains `needle` (lower-case). */
  aliasesMatching(workspaceId: number, needle: string): Promise<Map<number, string>>;
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

/** The breakdowns, every name but the days. */
export type WorkspaceBreakdown = Exclude<WorkspaceStatsName, 'clicks'>;

export interface WorkspaceOverview {
  /** The days, as `query` answers `clicks`. */
  days: WorkspaceStatsResult;
  /** Each breakdown's entries, most clicks first, at most `top` of each. */
  tables: Map<WorkspaceBreakdown, WorkspaceValueCount[]>;
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
    const order: StatsOrder = q.sort ?? (q.name === 'clicks' ? 'value' : 'max');
    const entries =
      q.name === 'links'
        ? await this.links(workspaceId, range, q, order === 'min' ? 'min' : 'max')
        : pageOf(
            arrange(q.name === 'clicks' ? days : await this.values(workspaceId, q.name, range), q.search, order),
            q.page,
          );
    const page = q.page ?? { page: 1, perPage: Math.max(1, entries.items.length) };
    return { ...entries, ...page, name: q.name, range, timeZone: workspace.timezone, clicks };
  }

  /**
   * The analytics page's read: the days and the top entries of every breakdown in `names`: the
   * value breakdowns from one read of the value days, the links from their ranking with the
   * aliases of the top ones only.
   */
  async overview(
    actor: Actor,
    workspaceId: number,
    asked: { from?: string | undefined; to?: string | undefined },
    names: readonly WorkspaceBreakdown[],
    top: number,
  ): Promise<WorkspaceOverview> {
    const days = await this.query(actor, workspaceId, { name: 'clicks', ...asked, page: null });
    const valueNames = names.filter((n): n is ValueName => n !== 'links');
    const [values, links] = await Promise.all([
      valueNames.length > 0
        ? this.deps.store.valueCounts(workspaceId, days.range, valueNames)
        : new Map<ValueName, ValueCount[]>(),
      names.includes('links') ? this.topLinks(workspaceId, days.range, 'max', top) : [],
    ]);
    const tables = new Map(
      names.map(
        (name) => [name, name === 'links' ? links : topOf(entriesOf(name, values.get(name) ?? []), top)] as const,
      ),
    );
    return { days, tables };
  }

  private async values(workspaceId: number, name: ValueName, range: DayRange): Promise<ValueCount[]> {
    const values = await this.deps.store.valueCounts(workspaceId, range, [name]);
    return entriesOf(name, values.get(name) ?? []);
  }

  /**
   * The `links` list. A page (no search) reads the aliases of the links it shows and of those
   * tied with its last (`firstLinks`); a search reads the links whose alias matches, a CSV every
   * link's alias.
   */
  private async links(
    workspaceId: number,
    range: DayRange,
    q: WorkspaceStatsQuery,
    order: 'max' | 'min',
  ): Promise<{ items: WorkspaceValueCount[]; total: number }> {
    const ranking = await this.deps.store.linkRanking(workspaceId, range);
    if (q.page !== null && !q.search) {
      const start = offsetOf(q.page);
      const first = await firstLinks(ranking, order, start + q.page.perPage, (ids) =>
        this.deps.store.linkAliases(workspaceId, ids),
      );
      return { items: first.slice(start), total: ranking.size };
    }
    const items: WorkspaceValueCount[] = [];
    if (q.search) {
      for (const [linkId, alias] of await this.deps.store.aliasesMatching(workspaceId, q.search.toLowerCase())) {
        const count = ranking.clicksOf(linkId);
        if (count > 0) items.push({ value: alias, count, linkId });
      }
    } else {
      const all = ranking.all();
      const aliases = await this.deps.store.linkAliases(
        workspaceId,
        all.map((l) => l.linkId),
      );
      for (const { linkId, clicks } of all) {
        const alias = aliases.get(linkId);
        if (alias !== undefined) items.push({ value: alias, count: clicks, linkId });
      }
    }
    return pageOf(arrange(items, q.search, order), q.page);
  }

  private async topLinks(
    workspaceId: number,
    range: DayRange,
    order: 'max' | 'min',
    n: number,
  ): Promise<WorkspaceValueCount[]> {
    const ranking = await this.deps.store.linkRanking(workspaceId, range);
    return firstLinks(ranking, order, n, (ids) => this.deps.store.linkAliases(workspaceId, ids));
  }
}

/** A breakdown's entries from its value counts: `qr` as scans against every other visit. */
function entriesOf(name: ValueName, values: ValueCount[]): ValueCount[] {
  return name === 'qr' ? qrEntries(values) : values;
}
