import type { FastifyRequest } from 'fastify';
import { normalizeBody } from '../../shared/input/normalize-input.ts';

/** A form as the browser sent it: strings and bracket lists (`pixels[]`), before any coercion. */
export type PostedForm = Record<string, unknown>;

/**
 * A form reader (app/form-route.ts): the form as typed, a copy kept before validation coerces
 * and drops fields in place (a failed submit must show what was typed); the body is then folded
 * as the API does before its schema runs (blank fields are "none", `domain_id` is `domain`…).
 */
export function keepPostedForm(request: FastifyRequest): PostedForm {
  const body = request.body && typeof request.body === 'object' ? (request.body as PostedForm) : {};
  const typed = structuredClone(body);
  request.body = normalizeBody(body);
  return typed;
}

/** A field as text for a control's value ('' when absent or not text). */
export function textOf(form: PostedForm, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** A list field (`pixels[]` arrives as `pixels`) as text values. */
export function listOf(form: PostedForm, name: string): string[] {
  const value = form[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' && value !== '' ? [value] : [];
}
