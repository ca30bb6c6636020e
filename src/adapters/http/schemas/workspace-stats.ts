import { Type, type Static } from '@sinclair/typebox';
import { WORKSPACE_STATS_NAMES } from '../../../core/analytics/workspace-stats.ts';
import { Enum, Nullable } from '../../shared/schemas/common.ts';
import { statsEnvelope, statsQueryFields } from './stats-range.ts';

/** GET /api/v1/workspaces/{id}/stats (docs/api.md, Workspace statistics). */
export const WorkspaceStatsQuery = Type.Object({
  name: Enum(WORKSPACE_STATS_NAMES, {
    description:
      'clicks: per day (every day of the range, zeros included); links: per link; tags: per tag name (a link with ' +
      'two tags counts under both; null: no tag); spaces: per space name (null: none); utm_source, utm_medium, ' +
      "utm_campaign: per value in the link's destination URL (null: none); destinations: per destination host; " +
      'qr: `qr` (scans of a QR code) and `link` (every other visit)',
  }),
  ...statsQueryFields("the workspace's", 'days'),
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

export const WorkspaceStatsEnvelope = statsEnvelope(WorkspaceStatsEntry, WorkspaceStatsSummary);
