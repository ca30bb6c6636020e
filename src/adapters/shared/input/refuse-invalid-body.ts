import type { FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { ValidationError, type FieldErrors } from '../../../core/shared/errors.ts';
import { fieldErrorsOf } from './validation-errors.ts';

/**
 * Write routes validate with attachValidation: when the schema refuses the body, its
 * well-formed fields still go through the core rules, so the 422 lists every bad field at once.
 * `ignored`: fields the operation ignores whatever their value (a link's domain on update).
 */
export async function refuseInvalidBody<I>(
  request: FastifyRequest,
  faultsOf: (input: I) => Promise<FieldErrors>,
  ignored: readonly string[] = [],
): Promise<void> {
  const failure = request.validationError as (Error & { validationContext?: string; validation?: unknown }) | undefined;
  if (!failure) return;
  if (failure.validationContext !== 'body' || !Array.isArray(failure.validation)) throw failure;
  const faults = await faultsWithRules(
    failure.validation as FastifySchemaValidationError[],
    request.body,
    faultsOf,
    ignored,
  );
  if (faults) throw new ValidationError(faults);
}

/** The schema's findings on one body plus the rules' on its other fields; null when the schema found nothing that counts. */
export async function faultsWithRules<I>(
  validation: readonly FastifySchemaValidationError[],
  body: unknown,
  faultsOf: (input: I) => Promise<FieldErrors>,
  ignored: readonly string[] = [],
): Promise<FieldErrors | null> {
  const schemaFaults = fieldErrorsOf(validation);
  for (const field of ignored) delete schemaFaults[field];
  if (Object.keys(schemaFaults).length === 0) return null;
  const bad = new Set(Object.keys(schemaFaults).map((field) => field.split('.')[0]));
  const fields = (body ?? {}) as Record<string, unknown>;
  const rest = Object.fromEntries(Object.entries(fields).filter(([k]) => !bad.has(k))) as I;
  const ruleFaults = bad.has('body') ? {} : await faultsOf(rest);
  return { ...ruleFaults, ...schemaFaults };
}
