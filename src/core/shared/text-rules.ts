import type { FieldErrorBag } from './errors.ts';
import { messages } from './messages.ts';

/**
 * A required-on-create, bounded text field. `undefined` means "not sent" (kept on update);
 * returns the trimmed value, or undefined when absent or invalid.
 */
export function checkName(
  bag: FieldErrorBag,
  field: string,
  raw: string | null | undefined,
  max: number,
  required: boolean,
): string | undefined {
  if (raw === undefined && !required) return undefined;
  const value = raw?.trim() ?? '';
  if (value === '') bag.add(field, messages.required(field));
  else if (value.length > max) bag.add(field, messages.maxChars(field, max));
  else return value;
  return undefined;
}
