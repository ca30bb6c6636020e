import { CODE_AT, NUMBER_AT, NUMBER_FIELDS, STRING_FIELDS, type ClickColumns } from '../../clicks/click-columns.ts';
import { monthOf, nextMonth, partitionOf, type Month } from './click-partitions.ts';
import { ArrayLiteralWriter, quotedElement } from './pg-arrays.ts';

/** A batch's click rows as pgClickStatements' insert takes them: one array literal a column. */
export interface PgClickArrays {
  count: number;
  /** link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot, rule, variant. */
  columns: string[];
  /** The months of the rows and the month after the last: the partitions the insert needs (docs/adr/0080). */
  months: Month[];
}

const INTEGERS = [NUMBER_AT.linkId, NUMBER_AT.accountId, NUMBER_AT.at];
const TEXTS = [CODE_AT.country, CODE_AT.city, CODE_AT.browser, CODE_AT.platform, CODE_AT.device, CODE_AT.language, CODE_AT.referrerHost];
/** is_bot, rule and variant: -1 stands for null in the columns, and is_bot is never -1. */
const NULLABLE = [NUMBER_AT.isBot, NUMBER_AT.rule, NUMBER_AT.variant];

/**
 * The array literals of the clicks of the links `keep` accepts, read straight from the columns
 * the writer thread holds: no click object is made, and each distinct string is quoted once a
 * message rather than once a click. The rows go in link order (a stable order: each link's stay
 * in time order), so that their entries in the (link_id, at) index are made in one walk along it
 * rather than at random (docs/adr/0079). `writer`'s buffer is reused from batch to batch.
 */
export function pgClickArrays(parts: readonly ClickColumns[], keep: (linkId: number) => boolean, writer = new ArrayLiteralWriter()): PgClickArrays {
  let total = 0;
  for (const part of parts) total += part.count;
  // Each kept row: its part, its index there, and its link.
  const partOf = new Uint32Array(total);
  const rowOf = new Uint32Array(total);
  const linkOf = new Float64Array(total);
  const months = new Map<string, Month>();
  let current = { name: '', from: 0, to: 0 };
  let last = -Infinity;
  let count = 0;
  parts.forEach(({ count: n, numbers }, p) => {
    for (let i = 0; i < n; i++) {
      const linkId = numbers[i * NUMBER_FIELDS + NUMBER_AT.linkId]!;
      if (!keep(linkId)) continue;
      partOf[count] = p;
      rowOf[count] = i;
      linkOf[count] = linkId;
      count++;
      const at = numbers[i * NUMBER_FIELDS + NUMBER_AT.at]!;
      if (at > last) last = at;
      if (at >= current.from && at < current.to) continue; // nearly every click is of the month before it
      const m = monthOf(at);
      current = partitionOf(m);
      months.set(current.name, m);
    }
  });
  if (count === 0) return { count, columns: [], months: [] };
  const ahead = nextMonth(monthOf(last));
  months.set(partitionOf(ahead).name, ahead);
  const order = new Uint32Array(count);
  for (let k = 0; k < count; k++) order[k] = k;
  order.sort((x, y) => linkOf[x]! - linkOf[y]! || x - y);

  const numberColumn = (field: number, nullable: boolean) => {
    writer.begin();
    for (const k of order) {
      const v = parts[partOf[k]!]!.numbers[rowOf[k]! * NUMBER_FIELDS + field]!;
      if (nullable && v < 0) writer.nul();
      else writer.int(v);
    }
    return writer.end();
  };
  // Each message's strings, quoted when first met.
  const quoted = parts.map(({ strings }) => new Array<Uint8Array | undefined>(strings.length));
  const textColumn = (field: number) => {
    writer.begin();
    for (const k of order) {
      const p = partOf[k]!;
      const { codes, strings } = parts[p]!;
      const code = codes[rowOf[k]! * STRING_FIELDS + field]!;
      if (code < 0) writer.nul();
      else writer.element((quoted[p]![code] ??= quotedElement(strings[code]!)));
    }
    return writer.end();
  };
  const columns = [...INTEGERS.map((f) => numberColumn(f, false)), ...TEXTS.map(textColumn), ...NULLABLE.map((f) => numberColumn(f, true))];
  return { count, columns, months: [...months.values()] };
}
