import type { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { UTM_LIMITS, UTM_PARAMS, type UtmParam } from './utm-params.ts';

// Control characters would be percent-encoded into the destination, invisible in every report.
const CONTROL = /\p{Cc}/u;

/** A parameter's value, trimmed; undefined when not sent or refused (the fault is in the bag). */
export function checkUtmValue(bag: FieldErrorBag, field: string, raw: string | null | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw?.trim() ?? '';
  if (value.length > UTM_LIMITS.valueMax) bag.add(field, messages.maxChars(field, UTM_LIMITS.valueMax));
  else if (CONTROL.test(value)) bag.add(field, messages.invalid(field));
  else return value;
  return undefined;
}

/** The parameters that were sent, each checked; null (or '') clears one. */
export function checkUtmParams(
  bag: FieldErrorBag,
  input: Partial<Record<UtmParam, string | null | undefined>>,
): Partial<Record<UtmParam, string>> {
  const checked: Partial<Record<UtmParam, string>> = {};
  for (const name of UTM_PARAMS) {
    const value = checkUtmValue(bag, name, input[name]);
    if (value !== undefined) checked[name] = value;
  }
  return checked;
}

export const hasControlCharacters = (text: string): boolean => CONTROL.test(text);
