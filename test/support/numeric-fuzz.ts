import assert from 'node:assert/strict';

/**
 * Spellings of a number that the one numeric reading refuses (issue 30): not finite, exponent,
 * hexadecimal, separators, spaces, fullwidth digits, a sign where none belongs. (A blank field is
 * not among them: it means "not sent" in a query and "clear" in a body, docs/api.md §1.)
 */
export const BAD_NUMBERS = [
  'Infinity',
  '-Infinity',
  '+Infinity',
  'NaN',
  '1e300',
  '-0',
  '0x10',
  '1_000',
  ' 1',
  '１',
  '1.0',
  '+1',
] as const;

/** Spellings refused where a fraction is read (a `number` field, not an `integer` one): `1.0` is one. */
export const BAD_DECIMALS = [
  ...BAD_NUMBERS.filter((b) => b !== '1.0'),
  '1e3',
  '1,5',
  '1.',
  '.5',
  '1.5.0',
  '0x1.8',
] as const;

/** The refused spellings for a field: an `integer` field's, or a `number` field's. */
export function badSpellings(schema: JsonSchema): readonly string[] {
  const types = typesOf(schema);
  return types.includes('number') && !types.includes('integer') ? BAD_DECIMALS : BAD_NUMBERS;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  default?: unknown;
}

const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

/** A numeric field of a schema: its path (array items as index 0) and its own schema. */
export interface NumericField {
  path: string[];
  schema: JsonSchema;
}

/** Every numeric field a schema declares, however deep (objects, lists of them). */
export function numericFields(schema: JsonSchema | undefined, path: string[] = []): NumericField[] {
  if (!schema) return [];
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) return [{ path, schema }];
  if (types.includes('array')) return numericFields(schema.items, [...path, '0']);
  if (types.includes('object'))
    return Object.entries(schema.properties ?? {}).flatMap(([name, sub]) => numericFields(sub, [...path, name]));
  return [];
}

/** Every numeric field is bounded: a digit string of any length is then out of range, never a huge number. */
export function assertBounded(field: NumericField, where: string): void {
  const { schema } = field;
  const bounded = schema.enum !== undefined || (schema.minimum !== undefined && schema.maximum !== undefined);
  assert.ok(
    bounded,
    `${where} ${field.path.join('.')}: a numeric field without a minimum and a maximum (or a list of choices)`,
  );
}

/** The value at `path` (index segments make lists), for a form (qs) or a JSON body. */
export function nested(path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) throw new Error('an empty path');
  const inner =
    rest.length === 0 ? value : /^\d+$/.test(rest[0]!) ? [nestedItem(rest.slice(1), value)] : nested(rest, value);
  return { [head]: inner };
}

function nestedItem(path: readonly string[], value: unknown): unknown {
  return path.length === 0 ? value : nested(path, value);
}

/** The field name a 422 gives for a path: `pixels.0`, `links.0.space`. */
export const fieldName = (path: readonly string[]): string => path.join('.');
