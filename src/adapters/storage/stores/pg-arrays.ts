/**
 * PostgreSQL array literals ('{1,2,NULL}', '{"a","b\"c",NULL}') for the click writer's array
 * parameters. pg would build them too, but element by element through its general value
 * conversion, escaping every string with two regular expressions; these arrays hold every field
 * of every click of a batch, and they are built on the redirect's own thread.
 */

const SPECIAL = /["\\]/;
const ESCAPE = /["\\]/g;

export function intArray(values: ReadonlyArray<number | null>): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    // Only integers go here (ids, counts, epoch ms): anything else would be read as another number.
    if (v !== null && v !== undefined && !Number.isSafeInteger(v)) throw new RangeError(`not an integer: ${v}`);
    out += v === null || v === undefined ? 'NULL' : String(v);
  }
  return `${out}}`;
}

export function textArray(values: ReadonlyArray<string | null>): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else out += SPECIAL.test(v) ? `"${v.replace(ESCAPE, '\\$&')}"` : `"${v}"`;
  }
  return `${out}}`;
}

/** A text array's element: quoted, its quotes and backslashes escaped (textArray's form), as UTF-8. */
export function quotedElement(value: string): Uint8Array {
  return Buffer.from(SPECIAL.test(value) ? `"${value.replace(ESCAPE, '\\$&')}"` : `"${value}"`, 'utf8');
}

const COMMA = 0x2c;
const NULL_BYTES = Buffer.from('NULL');

/**
 * Writes one array literal at a time into a buffer it keeps, element by element, and makes it a
 * string once at the end: the click writer's literals hold tens of thousands of elements, and
 * built by concatenation each element left a string behind for the garbage collector.
 */
export class ArrayLiteralWriter {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private at = 0;

  begin(): void {
    this.at = 0;
    this.bytes[this.at++] = 0x7b; // {
  }

  int(value: number): void {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer: ${value}`);
    this.room(18);
    const bytes = this.bytes;
    if (this.at > 1) bytes[this.at++] = COMMA;
    if (value < 0) {
      bytes[this.at++] = 0x2d; // -
      value = -value;
    }
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let p = (this.at += digits);
    do {
      bytes[--p] = 0x30 + (value % 10);
      value = Math.floor(value / 10);
    } while (value > 0);
  }

  nul(): void {
    this.element(NULL_BYTES);
  }

  /** An element already in its literal form (quotedElement's, or a number's digits). */
  element(value: Uint8Array): void {
    const n = value.length;
    this.room(n + 1);
    const bytes = this.bytes;
    if (this.at > 1) bytes[this.at++] = COMMA;
    for (let i = 0; i < n; i++) bytes[this.at + i] = value[i]!;
    this.at += n;
  }

  end(): string {
    this.room(1);
    this.bytes[this.at++] = 0x7d; // }
    return this.bytes.toString('utf8', 0, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }
}
