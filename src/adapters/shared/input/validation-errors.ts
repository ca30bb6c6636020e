import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { FieldErrors } from '../../../core/shared/errors.ts';
import { messages } from '../../../core/shared/messages.ts';

/**
 * Turns Ajv's findings into the contract's `{field: [messages]}`, one entry per bad field.
 * `typeMessages`: a field's own message for a value of the wrong type, where the generic one
 * would not say what it takes (a conversion's value).
 */
export function fieldErrorsOf(
  errors: readonly FastifySchemaValidationError[],
  typeMessages: Readonly<Record<string, string>> = {},
): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const params = e.params;
    const path = e.instancePath.split('/').filter(Boolean);
    if (e.keyword === 'required') path.push(String(params.missingProperty));
    const field = path.join('.') || 'body';
    const message = (e.keyword === 'type' ? typeMessages[field] : undefined) ?? messageFor(e.keyword, field, params);
    const list = (out[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return out;
}

function messageFor(keyword: string, field: string, params: Record<string, unknown>): string {
  switch (keyword) {
    case 'required':
      return messages.required(field);
    case 'type':
      return typeMessage(field, String(params.type));
    case 'enum':
    case 'const':
      return messages.selected(field);
    case 'maxLength':
      return messages.maxChars(field, Number(params.limit));
    case 'minLength':
      return messages.minChars(field, Number(params.limit));
    case 'minimum':
      return messages.min(field, Number(params.limit));
    case 'maximum':
      return messages.max(field, Number(params.limit));
    case 'maxItems':
      return `The ${field} field must not have more than ${String(params.limit)} items.`;
    default:
      return messages.invalid(field);
  }
}

function typeMessage(field: string, type: string): string {
  if (type.startsWith('integer')) return messages.integer(field);
  if (type.startsWith('number')) return messages.number(field);
  if (type.startsWith('string')) return messages.string(field);
  if (type.startsWith('array')) return messages.array(field);
  if (field === 'body') return 'The request body must be a form or a JSON object.';
  return `The ${field} field must be an object.`;
}
