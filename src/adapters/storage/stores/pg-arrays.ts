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
