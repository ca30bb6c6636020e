import type { BuildCompilerFromPool, RouteDefinition } from '@fastify/ajv-compiler';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

/**
 * The one reading of numbers for every query string, form body and path: ASCII decimal digits,
 * with a leading `-` only where the field takes negatives (`-0` nowhere: it is no number's spelling), and a
 * fraction (`12.50`) only where the schema says `number` rather than `integer` (docs/api.md §1).
 * Ajv's coercion would take `Infinity`, `0x10`, ` 1`, `1e3` or `1.0` for an integer, and its range
 * keywords let `Infinity` through.
 */
const UNSIGNED = /^[0-9]+$/;
const SIGNED = /^-?[0-9]+$/;
const UNSIGNED_FRACTION = /^[0-9]+(?:\.[0-9]+)?$/;
const SIGNED_FRACTION = /^-?[0-9]+(?:\.[0-9]+)?$/;
const NEGATIVE_ZERO = /^-0+(?:\.0+)?$/;

const isNegativeZero = (text: string): boolean => NEGATIVE_ZERO.test(text);

interface SchemaNode {
  type?: string | string[];
  minimum?: number;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

/**
 * The number a decimal text means, or null when it is anything else (-0 only where negatives are
 * allowed; digits after one `.` only where fractions are, both sides of it written).
 */
export function parseDecimal(text: string, options: { negative?: boolean; fraction?: boolean } = {}): number | null {
  const pattern = options.fraction
    ? options.negative
      ? SIGNED_FRACTION
      : UNSIGNED_FRACTION
    : options.negative
      ? SIGNED
      : UNSIGNED;
  if (!pattern.test(text)) return null;
  return Number(text);
}

const typesOf = (schema: SchemaNode): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

const fault = (instancePath: string, type: string): FastifySchemaValidationError => ({
  keyword: 'type',
  instancePath,
  schemaPath: '#/type',
  params: { type },
  message: `must be ${type}`,
});

const belowMinimum = (instancePath: string, limit: number): FastifySchemaValidationError => ({
  keyword: 'minimum',
  instancePath,
  schemaPath: '#/minimum',
  params: { comparison: '>=', limit },
  message: `must be >= ${limit}`,
});

/**
 * What the schema's types refuse before Ajv coerces: a number not written in decimal digits, an
 * array or object (or a number) where text is expected, a list where one value is. Ajv would turn
 * `["1"]` into `"1"`, `5` into `"5"`, `true` into `1`; one value where a list is expected stays
 * a list of one (a form's `pixels=3`). Real JSON numbers pass; their range is Ajv's to check.
 */
export function inputFaults(schema: unknown, data: unknown, path = ''): FastifySchemaValidationError[] {
  if (data === undefined || schema === null || typeof schema !== 'object') return [];
  const node = schema as SchemaNode;
  const types = typesOf(node);
  if (types.length === 0) return [];
  // A blank form field is null (normalize-input.ts): Ajv's own reading of it stays ("required"…).
  if (data === null) return [];
  if (types.includes('array')) {
    if (Array.isArray(data)) return data.flatMap((item, i) => inputFaults(node.items, item, `${path}/${i}`));
    if (typeof data === 'object') return [fault(path, 'array')];
    return inputFaults(node.items, data, `${path}/0`);
  }
  if (types.includes('object')) {
    if (typeof data !== 'object' || Array.isArray(data)) return [];
    const fields = data as Record<string, unknown>;
    return Object.entries(node.properties ?? {}).flatMap(([name, sub]) =>
      Object.hasOwn(fields, name) ? inputFaults(sub, fields[name], `${path}/${name}`) : [],
    );
  }
  const numeric = types.includes('integer') || types.includes('number');
  const text = types.includes('string');
  if (typeof data === 'object') return [fault(path, types.filter((t) => t !== 'null').join(','))];
  if (numeric && !text) {
    if (typeof data === 'number' && !Object.is(data, -0)) return [];
    // Negatives only where the field takes them: a minimum below 0, or a negative choice.
    const negative =
      (node.minimum !== undefined && node.minimum < 0) || (node.enum ?? []).some((v) => typeof v === 'number' && v < 0);
    // A field that may hold an integer only keeps the integer reading, whatever else it allows.
    const fraction = !types.includes('integer');
    // -0, as text or a JSON number, is no spelling of a number (docs/api.md §1): it would be stored as 0.
    const spelt = typeof data === 'number' ? '-0' : data;
    if (typeof spelt === 'string' && !isNegativeZero(spelt) && parseDecimal(spelt, { negative, fraction }) !== null)
      return [];
    // A negative number (or -0) where the field takes none is out of its range, and said so.
    if (
      typeof spelt === 'string' &&
      !negative &&
      node.minimum !== undefined &&
      parseDecimal(spelt, { negative: true, fraction }) !== null
    )
      return [belowMinimum(path, node.minimum)];
    return [fault(path, types.includes('integer') ? 'integer' : 'number')];
  }
  if (text && !numeric && typeof data !== 'string') return [fault(path, 'string')];
  return [];
}

type Validate = ((data: unknown) => unknown) & { errors?: unknown };

/**
 * Wraps a compiled validator: the strict reading above runs on the data as sent, then Ajv's (its
 * coercion, defaults, ranges) as always; the faults found first replace Ajv's findings on the
 * same fields, so each bad field is named once.
 */
export function strictValidator(schema: unknown, validate: Validate): Validate {
  const strict: Validate = (data: unknown) => {
    const faults = inputFaults(schema, data);
    const ok = validate(data);
    if (faults.length === 0) {
      strict.errors = validate.errors;
      return ok;
    }
    const covered = (p: string) => faults.some((f) => p === f.instancePath || p.startsWith(`${f.instancePath}/`));
    const others = ((ok === false ? validate.errors : null) as FastifySchemaValidationError[] | null) ?? [];
    strict.errors = [...faults, ...others.filter((e) => !covered(e.instancePath))];
    return false;
  };
  return strict;
}

/** Fastify's validator factory (schemaController.compilersFactory.buildValidator), each validator wrapped. */
export function strictValidatorFactory(inner: BuildCompilerFromPool): BuildCompilerFromPool {
  return (externalSchemas, options) => {
    const compile = inner(externalSchemas, options) as unknown as (route: RouteDefinition) => Validate;
    const wrapped = (route: RouteDefinition) => {
      const validate = compile(route);
      // Headers are not input a client types: they keep Fastify's reading.
      return String(route.httpPart) === 'headers' ? validate : strictValidator(route.schema, validate);
    };
    // Fastify calls the compiler with a route definition, not the bare schema Ajv's type names.
    return wrapped as unknown as ReturnType<BuildCompilerFromPool>;
  };
}
