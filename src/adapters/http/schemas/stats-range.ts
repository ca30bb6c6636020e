import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from '../../../core/stats/range.ts';
import { Enum, ListEnvelope, PageQuery } from '../../shared/schemas/common.ts';

const Day = (description: string) => Type.String({ maxLength: 10, description });

/**
 * The query fields every statistics route shares beside its `name`: the range of days, read in
 * `zone`'s time zone ("the account's", "the workspace's"), the search, the order (`unordered`:
 * which names keep their natural order when `sort` is absent), the format and the page.
 */
export function statsQueryFields(zone: string, unordered: string) {
  return {
    from: Type.Optional(
      Day(`First day, YYYY-MM-DD in ${zone} time zone; default: ${DEFAULT_RANGE_DAYS - 1} days before \`to\``),
    ),
    to: Type.Optional(
      Day(
        `Last day (included), YYYY-MM-DD in ${zone} time zone; default: today. At most ${MAX_RANGE_DAYS} days in all`,
      ),
    ),
    search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive text in the value' })),
    sort: Type.Optional(
      Enum(['max', 'min'] as const, {
        description: `max/min by count, ties by value. Absent: ${unordered} in order, other names by max`,
      }),
    ),
    format: Enum(['json', 'csv'] as const, {
      default: 'json',
      description: 'csv: every entry (not paged) as a CSV attachment',
    }),
    ...PageQuery,
  };
}

/** A statistics answer: the list envelope of `entry`, with the range's `summary` beside it. */
export function statsEnvelope<E extends TSchema, S extends TObject>(entry: E, summary: S) {
  const list = ListEnvelope(entry).properties;
  return Type.Object({ data: list.data, links: list.links, meta: list.meta, stats: summary, status: list.status });
}
