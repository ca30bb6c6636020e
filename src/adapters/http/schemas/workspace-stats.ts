import { Type, type Static } from '@sinclair/typebox';
import { WORKSPACE_STATS_NAMES } from '../../../core/analytics/workspace-stats.ts';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from '../../../core/stats/range.ts';
import { Enum, ListEnvelope, Nullable, PageQuery } from '../../shared/schemas/common.ts';

const Day = (description: string) => Type.String({ maxLength: 10, description });

/** GET /api/v1/workspaces/{id}/stats (docs/api.md, Workspace statistics). */
export const WorkspaceStatsQuery = Type.Object({
  name: Enum(WORKSPACE_STATS_NAMES, {
    description:
      'clicks: per day (every day of the range, zeros included); links: per link; tags: per tag name (a link with ' +
      'two tags counts under both; null: no tag); spaces: per space name (null: none); utm_source, utm_medium, ' +
      "utm_campaign: per value in the link's destination URL (null: none); destinations: per destination host; " +
      'qr: `qr` (scans of a QR code) and `link` (every other visit)',
  }),
  from: Type.Optional(
    Day(`First day, YYYY-MM-DD in the workspace's time zone; default: ${DEFAULT_RANGE_DAYS - 1} days before \`to\``),
  ),
  to: Type.Optional(
    Day(
      `Last day (included), YYYY-MM-DD in the workspace's time zone; default: today. At most ${MAX_RANGE_DAYS} days in all`,
    ),
  ),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive text in the value' })),
  sort: Type.Optional(
    Enum(['max', 'min'] as const, {
      description: 'max/min by count, ties by value. Absent: days in order, other names by max',
    }),
  ),
  format: Enum(['json', 'csv'] as const, {
    default: 'json',
    description: 'csv: every entry (not paged) as a CSV attachment',
  }),
  ...PageQuery,
});
export type WorkspaceStatsQuery = Static<typeof WorkspaceStatsQuery>;

const WorkspaceStatsEntry = Type.Object(
  {
    value: Nullable(
      Type.String({ description: 'Day, link alias, tag, space, UTM value, host, or qr / link; null: none' }),
    ),
    count: Type.Integer({ description: 'Human clicks' }),
    link_id: Type.Optional(Type.Integer({ description: 'name=links: the link counted' })),
  },
  { title: 'WorkspaceStatsEntry' },
);

const WorkspaceStatsSummary = Type.Object(
  {
    name: Type.String(),
    from: Type.String({ description: 'First day of the range (after defaults)' }),
    to: Type.String({ description: 'Last day of the range, included' }),
    timezone: Type.String({ description: "The workspace's time zone the days are read in" }),
    total: Type.Integer({ description: "Human clicks in the range, over every link (a deleted link's included)" }),
  },
  { title: 'WorkspaceStatsSummary' },
);

const list = ListEnvelope(WorkspaceStatsEntry).properties;
export const WorkspaceStatsEnvelope = Type.Object({
  data: list.data,
  links: list.links,
  meta: list.meta,
  stats: WorkspaceStatsSummary,
  status: list.status,
});
