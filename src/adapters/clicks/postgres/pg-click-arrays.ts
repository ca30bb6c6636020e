import { CODE_AT, NUMBER_AT, NUMBER_FIELDS, STRING_FIELDS, type ClickColumns } from '../sink/click-columns.ts';
import { monthOf, nextMonth, partitionOf, type Month } from '../../storage/stores/click-partitions.ts';
import { BinaryArrayWriter, textBytesOnce } from '../../storage/stores/pg-binary-arrays.ts';

/** A batch's click rows as pgClickStatements' insert takes them: one binary array a column (pg-binary-arrays.ts). */
export interface PgClickArrays {
  count: number;
  /** link_id, account_id (int4), at (int8), country, city, browser, platform, device, language, referrer_host (text), is_bot, rule, variant, qr (int4). */
  columns: Buffer[];
  /** The months of the rows and the month after the last: the partitions the insert needs (docs/design/clicks.md). */
  months: Month[];
}

const TEXTS = [
  CODE_AT.country,
  CODE_AT.city,
  CODE_AT.browser,
  CODE_AT.platform,
  CODE_AT.device,
  CODE_AT.language,
  CODE_AT.referrerHost,
];
/** Rows a batch can hold and still be ordered by one number a row (linkOrder). */
const INDEX_SPAN = 2 ** 21;
/** is_bot, rule and variant: -1 stands for null in the columns, and is_bot is never -1. */
const NULLABLE = [NUMBER_AT.isBot, NUMBER_AT.rule, NUMBER_AT.variant];

/**
 * The arrays of the clicks of the links `keep` accepts, read straight from the columns the writer
 * thread holds: no click object is made, and each distinct string is encoded once a write
 * rather than once a click. The rows go in link order (a stable order: each link's stay
 * in time order), so that their entries in the (link_id, at) index are made in one walk along it
 * rather than at random (docs/design/clicks.md). `writer`'s buffer is reused from batch to batch.
 */
export function pgClickArrays(
  parts: readonly ClickColumns[],
  keep: (linkId: number) => boolean,
  writer = new BinaryArrayWriter(),
): PgClickArrays {
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
  const order = linkOrder(linkOf, count);

  // The kept rows' fields gathered once in link order: each column below then reads them in
  // sequence, rather than every column jumping from message to message along the order.
  const numbers = new Float64Array(count * NUMBER_FIELDS);
  const codes = new Int32Array(count * STRING_FIELDS);
  const partAt = new Uint32Array(count);
  for (let j = 0; j < count; j++) {
    const k = order[j]!;
    const p = partOf[k]!;
    const part = parts[p]!;
    const fromNumber = rowOf[k]! * NUMBER_FIELDS;
    const fromCode = rowOf[k]! * STRING_FIELDS;
    for (let f = 0; f < NUMBER_FIELDS; f++) numbers[j * NUMBER_FIELDS + f] = part.numbers[fromNumber + f]!;
    for (let f = 0; f < STRING_FIELDS; f++) codes[j * STRING_FIELDS + f] = part.codes[fromCode + f]!;
    partAt[j] = p;
  }

  const numberColumn = (field: number, type: 'int4' | 'int8', nullable: boolean) => {
    writer.begin(type);
    for (let j = 0; j < count; j++) {
      const v = numbers[j * NUMBER_FIELDS + field]!;
      if (nullable && v < 0) writer.nul();
      else if (type === 'int4') writer.int4(v);
      else writer.int8(v);
    }
    return writer.end();
  };
  // Each message's strings, encoded when first met: each message has a table of its own, and
  // a write holds hundreds of messages with the same few strings, so the bytes are shared.
  const encoded = parts.map(({ strings }) => new Array<Uint8Array | undefined>(strings.length));
  const bytesOf = textBytesOnce();
  const textColumn = (field: number) => {
    writer.begin('text');
    for (let j = 0; j < count; j++) {
      const code = codes[j * STRING_FIELDS + field]!;
      if (code < 0) writer.nul();
      else {
        const p = partAt[j]!;
        writer.text((encoded[p]![code] ??= bytesOf(parts[p]!.strings[code]!)));
      }
    }
    return writer.end();
  };
  const columns = [
    numberColumn(NUMBER_AT.linkId, 'int4', false),
    numberColumn(NUMBER_AT.accountId, 'int4', false),
    numberColumn(NUMBER_AT.at, 'int8', false),
    ...TEXTS.map(textColumn),
    ...NULLABLE.map((f) => numberColumn(f, 'int4', true)),
    numberColumn(NUMBER_AT.qr, 'int4', false),
  ];
  return { count, columns, months: [...months.values()] };
}

/**
 * Row indices 0..count-1 by link, each link's in their own order. A write holds everything due,
 * up to CLICK_BUFFER_MAX rows, so one past `span` rows is sorted by a comparator instead.
 */
export function linkOrder(linkOf: Float64Array, count: number, span = INDEX_SPAN): Uint32Array {
  const order = new Uint32Array(count);
  if (count < span) {
    // One number a row, link id and index together (exact below 2^53: link ids are int4), sorted
    // by the typed array's own numeric sort rather than through a comparator called per pair.
    const keys = new Float64Array(count);
    for (let k = 0; k < count; k++) keys[k] = linkOf[k]! * span + k;
    keys.sort();
    for (let j = 0; j < count; j++) order[j] = keys[j]! % span;
    return order;
  }
  for (let k = 0; k < count; k++) order[k] = k;
  return order.sort((x, y) => linkOf[x]! - linkOf[y]! || x - y);
}
