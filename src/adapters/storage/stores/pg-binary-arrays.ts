/**
 * One-dimensional arrays in PostgreSQL's binary form (what array_send writes and array_recv
 * reads), for the click writer's array parameters: pg sends a Buffer parameter in binary, so the
 * server reads each element as it is rather than parsing a literal, and nothing is turned into
 * digits or quoted on this side. The form: ndim, a has-nulls flag, the element type's OID, then
 * per dimension its length and lower bound, then per element its byte length (-1: NULL) and bytes,
 * every integer 4 bytes big-endian. The element type must be the one the statement casts the
 * parameter to, or the server refuses it.
 */

export const ELEMENT = { int4: 23, int8: 20, text: 25 } as const;
export type ElementType = keyof typeof ELEMENT;

const HEADER_BYTES = 20;
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;
const TWO_32 = 2 ** 32;

/** Writes one array at a time into a buffer it keeps, and hands each out as a copy of its own. */
export class BinaryArrayWriter {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  private at = HEADER_BYTES;
  private count = 0;
  private nulls = false;
  private type: ElementType = 'int4';

  begin(type: ElementType): void {
    this.type = type;
    this.at = HEADER_BYTES;
    this.count = 0;
    this.nulls = false;
  }

  int4(value: number): void {
    if (this.type !== 'int4') throw new TypeError(`an int4 in a ${this.type} array`);
    if (!Number.isInteger(value) || value < INT4_MIN || value > INT4_MAX) throw new RangeError(`not an int4: ${value}`);
    this.room(8);
    this.view.setInt32(this.at, 4);
    this.view.setInt32(this.at + 4, value);
    this.at += 8;
    this.count++;
  }

  int8(value: number): void {
    if (this.type !== 'int8') throw new TypeError(`an int8 in a ${this.type} array`);
    if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer: ${value}`);
    this.room(12);
    const high = Math.floor(value / TWO_32);
    this.view.setInt32(this.at, 8);
    this.view.setInt32(this.at + 4, high);
    this.view.setUint32(this.at + 8, value - high * TWO_32);
    this.at += 12;
    this.count++;
  }

  /** A text element as UTF-8 (textBytes'): a click's strings repeat, so each is encoded once. */
  text(utf8: Uint8Array): void {
    if (this.type !== 'text') throw new TypeError(`a text in a ${this.type} array`);
    const n = utf8.length;
    this.room(4 + n);
    this.view.setInt32(this.at, n);
    this.bytes.set(utf8, this.at + 4);
    this.at += 4 + n;
    this.count++;
  }

  nul(): void {
    this.room(4);
    this.view.setInt32(this.at, -1);
    this.at += 4;
    this.count++;
    this.nulls = true;
  }

  /** The array written since begin(), in a buffer of its own (this writer's is reused). */
  end(): Buffer {
    const view = this.view;
    view.setInt32(0, 1); // one dimension
    view.setInt32(4, this.nulls ? 1 : 0);
    view.setInt32(8, ELEMENT[this.type]);
    view.setInt32(12, this.count);
    view.setInt32(16, 1); // lower bound
    return Buffer.from(this.bytes.subarray(0, this.at));
  }

  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
    this.view = new DataView(bigger.buffer, bigger.byteOffset, bigger.byteLength);
  }
}

/** A string as a text element's bytes. PostgreSQL's text cannot hold NUL: refused here, as the server would. */
export function textBytes(value: string): Uint8Array {
  if (value.includes('\0')) throw new RangeError('a text element cannot hold NUL');
  return Buffer.from(value, 'utf8');
}

/** An int4[] parameter; null elements are NULL. */
export function int4Array(values: ReadonlyArray<number | null>, writer = new BinaryArrayWriter()): Buffer {
  return arrayOf('int4', values, (v) => writer.int4(v), writer);
}

/** An int8[] parameter (ids, counts, epoch ms); null elements are NULL. */
export function int8Array(values: ReadonlyArray<number | null>, writer = new BinaryArrayWriter()): Buffer {
  return arrayOf('int8', values, (v) => writer.int8(v), writer);
}

/** A text[] parameter; null elements are NULL. */
export function textArray(values: ReadonlyArray<string | null>, writer = new BinaryArrayWriter()): Buffer {
  return arrayOf('text', values, (v) => writer.text(textBytes(v)), writer);
}

/**
 * textArray, for values that repeat (a window's dimensions, days and values): each distinct one
 * is encoded once. Over values nearly all distinct (visitors) the lookup costs more than it saves.
 */
export function repeatedTextArray(values: ReadonlyArray<string | null>, writer = new BinaryArrayWriter()): Buffer {
  const bytesOf = textBytesOnce();
  return arrayOf('text', values, (v) => writer.text(bytesOf(v)), writer);
}

/** textBytes, remembering each string's bytes: for strings that repeat. */
export function textBytesOnce(): (value: string) => Uint8Array {
  const encoded = new Map<string, Uint8Array>();
  return (value) => {
    let bytes = encoded.get(value);
    if (bytes === undefined) encoded.set(value, (bytes = textBytes(value)));
    return bytes;
  };
}

function arrayOf<T>(
  type: ElementType,
  values: ReadonlyArray<T | null>,
  element: (value: T) => void,
  writer: BinaryArrayWriter,
): Buffer {
  writer.begin(type);
  for (const v of values) {
    if (v === null) writer.nul();
    else element(v);
  }
  return writer.end();
}
