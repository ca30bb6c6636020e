import { Type, type Static } from '@sinclair/typebox';
import { STATS_NAMES } from '../../../core/stats/dimensions.ts';
import { Enum, Nullable } from '../../shared/schemas/common.ts';
import { statsEnvelope, statsQueryFields } from './stats-range.ts';

export const StatsQuery = Type.Object({
  name: Enum([...STATS_NAMES, 'conversions'] as const, {
    description:
      'clicks: per day (every day of the range, zeros included); clicks_hours: per hour of day 00–23; ' +
      'country, cities, browser, platform, device, language, referrer: per value; ' +
      'conversions: clicks and conversions per rule and split variant (other parameters ignored)',
  }),
  ...statsQueryFields("the account's", 'days and hours'),
});
export type StatsQuery = Static<typeof StatsQuery>;

const StatsEntry = Type.Object(
  {
    value: Nullable(
      Type.String({ description: 'Day, hour, country code, city, browser…; null: not known (e.g. no Referer)' }),
    ),
    count: Type.Integer({ description: 'Human clicks' }),
  },
  { title: 'StatsEntry' },
);

const StatsSummary = Type.Object(
  {
    name: Type.String(),
    from: Type.String({ description: 'First day of the range (after defaults)' }),
    to: Type.String({ description: 'Last day of the range, included' }),
    timezone: Type.String({ description: 'The account time zone the days are read in' }),
    total: Type.Integer({ description: 'Human clicks in the range' }),
    unique: Type.Integer({ description: "Unique visitors: the sum over the days of each day's unique visitors" }),
    bots: Type.Integer({ description: 'Bot visits in the range, counted apart from everything else' }),
  },
  { title: 'StatsSummary' },
);

export const StatsEnvelope = statsEnvelope(StatsEntry, StatsSummary);

/** GET /api/v1/stats/{id}/export: the raw clicks of the range (api.md §8). */
export const ClicksExportQuery = Type.Pick(StatsQuery, ['from', 'to']);
export type ClicksExportQuery = Static<typeof ClicksExportQuery>;
