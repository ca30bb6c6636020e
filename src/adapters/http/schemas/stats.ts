import { Type, type Static } from '@sinclair/typebox';
import { STATS_NAMES } from '../../../core/stats/dimensions.ts';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from '../../../core/stats/range.ts';
import { Enum, ListEnvelope, Nullable, PageQuery } from '../../shared/schemas/common.ts';

const Day = (description: string) => Type.String({ maxLength: 10, description });

export const StatsQuery = Type.Object({
  name: Enum([...STATS_NAMES, 'conversions'] as const, {
    description:
      'clicks: per day (every day of the range, zeros included); clicks_hours: per hour of day 00–23; ' +
      'country, cities, browser, platform, device, language, referrer: per value; ' +
      'conversions: clicks and conversions per rule and split variant (other parameters ignored)',
  }),
  from: Type.Optional(
    Day(`First day, YYYY-MM-DD in the account's time zone; default: ${DEFAULT_RANGE_DAYS - 1} days before \`to\``),
  ),
  to: Type.Optional(
    Day(
      `Last day (included), YYYY-MM-DD in the account's time zone; default: today. At most ${MAX_RANGE_DAYS} days in all`,
    ),
  ),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive text in the value' })),
  sort: Type.Optional(
    Enum(['max', 'min'] as const, {
      description: 'max/min by count, ties by value. Absent: days and hours in order, other names by max',
    }),
  ),
  format: Enum(['json', 'csv'] as const, {
    default: 'json',
    description: 'csv: every entry (not paged) as a CSV attachment',
  }),
  ...PageQuery,
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

const list = ListEnvelope(StatsEntry).properties;
export const StatsEnvelope = Type.Object({
  data: list.data,
  links: list.links,
  meta: list.meta,
  stats: StatsSummary,
  status: list.status,
});

/** GET /api/v1/stats/{id}/export: the raw clicks of the range (api.md §8). */
export const ClicksExportQuery = Type.Pick(StatsQuery, ['from', 'to']);
export type ClicksExportQuery = Static<typeof ClicksExportQuery>;
