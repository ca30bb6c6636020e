import type { Click } from '../../../core/clicks/click.ts';

/**
 * Clicks as they cross to the writer thread: numbers in one Float64Array, strings as indices
 * into a table of the distinct strings of the message. Structured cloning copies an object
 * property by property, defining each on the other side, which cost both threads more than
 * SQLite's insert of the click (docs/performance.md).
 * Typed arrays are moved, not copied, and the few distinct strings (countries, browsers, days…)
 * cross once a message.
 */
export interface ClickColumns {
  count: number;
  /** NUMBER_FIELDS per click: linkId, accountId, at, hour, isBot (0/1), rule and variant (-1: null), qr (0/1). */
  numbers: Float64Array;
  /** STRING_FIELDS per click: an index into `strings`, -1 for null, or INLINE (the visitor only). */
  codes: Int32Array;
  /**
   * VISITOR_BYTES per click: a visitor hash kept as its ASCII characters (its length, then the
   * bytes) when its code is INLINE. Nearly every click has a visitor of its own: as strings in
   * the table, a message's visitors lived on the main thread's heap until the hand-off, long
   * enough to be promoted, and were cloned one by one into the message.
   */
  visitors: Uint8Array;
  strings: string[];
}

export const NUMBER_FIELDS = 8;
export const STRING_FIELDS = 9;
/** Where each field sits among a click's NUMBER_FIELDS numbers and STRING_FIELDS codes. */
export const NUMBER_AT = { linkId: 0, accountId: 1, at: 2, hour: 3, isBot: 4, rule: 5, variant: 6, qr: 7 } as const;
export const CODE_AT = {
  day: 0,
  visitor: 1,
  country: 2,
  city: 3,
  browser: 4,
  platform: 5,
  device: 6,
  language: 7,
  referrerHost: 8,
} as const;
/** A length byte and up to 23 characters: a visitor hash is 22 (core/stats/visitor-hash.ts). */
const VISITOR_BYTES = 24;
const INLINE = -2;

/** The table of a message's distinct strings, built as clicks are encoded. */
class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();

  code(value: string | null): number {
    if (value === null) return -1;
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}

/**
 * Encodes clicks into columns one at a time, as they are recorded: the redirect keeps no click
 * object past its visit (held until a hand-off, they outlived the young generation and were
 * promoted, garbage for the next full collection). build() hands the columns over and starts
 * new ones.
 */
export class ClickColumnsBuilder {
  private numbers: Float64Array;
  private codes: Int32Array;
  private visitors: Uint8Array;
  private table = new StringTable();
  private n = 0;

  constructor(private capacity = 1024) {
    this.numbers = new Float64Array(capacity * NUMBER_FIELDS);
    this.codes = new Int32Array(capacity * STRING_FIELDS);
    this.visitors = new Uint8Array(capacity * VISITOR_BYTES);
  }

  get count(): number {
    return this.n;
  }

  add(c: Click): void {
    if (this.n === this.capacity) this.grow();
    const table = this.table;
    let n = this.n * NUMBER_FIELDS;
    const numbers = this.numbers;
    numbers[n++] = c.linkId;
    numbers[n++] = c.accountId;
    numbers[n++] = c.at;
    numbers[n++] = c.hour;
    numbers[n++] = c.isBot ? 1 : 0;
    numbers[n++] = c.rule ?? -1;
    numbers[n++] = c.variant ?? -1;
    numbers[n] = c.qr === true ? 1 : 0;
    let s = this.n * STRING_FIELDS;
    const codes = this.codes;
    codes[s++] = table.code(c.day);
    codes[s++] = this.visitorCode(c.visitor);
    codes[s++] = table.code(c.country);
    codes[s++] = table.code(c.city);
    codes[s++] = table.code(c.browser);
    codes[s++] = table.code(c.platform);
    codes[s++] = table.code(c.device);
    codes[s++] = table.code(c.language);
    codes[s] = table.code(c.referrerHost);
    this.n++;
  }

  /** The columns of the clicks added since the last build; the builder starts empty again. */
  build(): ClickColumns {
    const columns: ClickColumns = {
      count: this.n,
      numbers: this.numbers,
      codes: this.codes,
      visitors: this.visitors,
      strings: this.table.strings,
    };
    // The arrays are moved to another thread: new ones, of the same size, for the next clicks.
    this.numbers = new Float64Array(this.capacity * NUMBER_FIELDS);
    this.codes = new Int32Array(this.capacity * STRING_FIELDS);
    this.visitors = new Uint8Array(this.capacity * VISITOR_BYTES);
    this.table = new StringTable();
    this.n = 0;
    return columns;
  }

  private grow(): void {
    this.capacity *= 2;
    const numbers = new Float64Array(this.capacity * NUMBER_FIELDS);
    numbers.set(this.numbers);
    const codes = new Int32Array(this.capacity * STRING_FIELDS);
    codes.set(this.codes);
    const visitors = new Uint8Array(this.capacity * VISITOR_BYTES);
    visitors.set(this.visitors);
    this.numbers = numbers;
    this.codes = codes;
    this.visitors = visitors;
  }

  /** INLINE with the visitor's bytes written, or its code in the table (null, or not a short ASCII string). */
  private visitorCode(visitor: string | null): number {
    if (visitor === null || visitor.length >= VISITOR_BYTES) return this.table.code(visitor);
    const at = this.n * VISITOR_BYTES;
    for (let i = 0; i < visitor.length; i++) {
      const c = visitor.charCodeAt(i);
      if (c > 0x7f) return this.table.code(visitor);
      this.visitors[at + 1 + i] = c;
    }
    this.visitors[at] = visitor.length;
    return INLINE;
  }
}

/**
 * The clicks of several messages, in order, read in place: each step of an iteration gives the
 * same click object, filled with the next click's fields. The writer thread holds tens of
 * thousands of clicks while it writes them; as objects they outlived the young generation and
 * cost it most of its garbage collection. For readers that keep fields, never the click itself
 * (the row insert and the rollup window).
 */
export class ClickColumnsView implements Iterable<Click> {
  constructor(readonly parts: readonly ClickColumns[]) {}

  get count(): number {
    let n = 0;
    for (const part of this.parts) n += part.count;
    return n;
  }

  /** The distinct links clicked, read from the numbers alone. */
  linkIds(): Set<number> {
    const ids = new Set<number>();
    for (const { count, numbers } of this.parts) for (let i = 0; i < count; i++) ids.add(numbers[i * NUMBER_FIELDS]!);
    return ids;
  }

  [Symbol.iterator](): Iterator<Click> {
    const parts = this.parts;
    const click: Click = {
      linkId: 0,
      accountId: 0,
      at: 0,
      day: '',
      hour: 0,
      visitor: null,
      country: null,
      city: null,
      browser: null,
      platform: null,
      device: null,
      language: null,
      referrerHost: null,
      isBot: false,
      rule: null,
      variant: null,
      qr: false,
    };
    const step: IteratorResult<Click> = { value: click, done: false };
    const finished: IteratorResult<Click> = { value: undefined, done: true };
    // Each part's visitor bytes as a Buffer, whose toString('latin1') makes the string in one
    // native call (String.fromCharCode over a subarray is slower in the writer thread).
    const visitorBytes = parts.map(({ visitors }) =>
      Buffer.from(visitors.buffer, visitors.byteOffset, visitors.byteLength),
    );
    let p = 0;
    let i = 0;
    return {
      next(): IteratorResult<Click> {
        while (p < parts.length && i >= parts[p]!.count) {
          p++;
          i = 0;
        }
        if (p === parts.length) return finished;
        const { numbers, codes, strings } = parts[p]!;
        const n = i * NUMBER_FIELDS;
        const s = i * STRING_FIELDS;
        const v = i * VISITOR_BYTES;
        i++;
        click.linkId = numbers[n]!;
        click.accountId = numbers[n + 1]!;
        click.at = numbers[n + 2]!;
        click.hour = numbers[n + 3]!;
        click.isBot = numbers[n + 4] === 1;
        const rule = numbers[n + 5]!;
        const variant = numbers[n + 6]!;
        click.rule = rule < 0 ? null : rule;
        click.variant = variant < 0 ? null : variant;
        click.qr = numbers[n + 7] === 1;
        click.day = textOf(strings, codes[s]!)!;
        const visitor = codes[s + 1]!;
        click.visitor = visitor === INLINE ? inlineVisitor(visitorBytes[p]!, v) : textOf(strings, visitor);
        click.country = textOf(strings, codes[s + 2]!);
        click.city = textOf(strings, codes[s + 3]!);
        click.browser = textOf(strings, codes[s + 4]!);
        click.platform = textOf(strings, codes[s + 5]!);
        click.device = textOf(strings, codes[s + 6]!);
        click.language = textOf(strings, codes[s + 7]!);
        click.referrerHost = textOf(strings, codes[s + 8]!);
        return step;
      },
    };
  }
}

function textOf(strings: readonly string[], code: number): string | null {
  return code === -1 ? null : strings[code]!;
}

function inlineVisitor(visitors: Buffer, at: number): string {
  return visitors.toString('latin1', at + 1, at + 1 + visitors[at]!);
}

/** Clicks as columns: a view's own, read in place, or any others encoded (the clicks may be one reused object). */
export function columnsOf(clicks: Iterable<Click>): readonly ClickColumns[] {
  if (clicks instanceof ClickColumnsView) return clicks.parts;
  const builder = new ClickColumnsBuilder();
  for (const click of clicks) builder.add(click);
  return [builder.build()];
}

/** What postMessage should move rather than copy. */
export function transferablesOf(columns: ClickColumns): ArrayBuffer[] {
  return [
    columns.numbers.buffer as ArrayBuffer,
    columns.codes.buffer as ArrayBuffer,
    columns.visitors.buffer as ArrayBuffer,
  ];
}
