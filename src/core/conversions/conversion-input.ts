import { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';

/** A conversion as a client sends it (the API's body, the pixel's query). */
export interface ConversionInput {
  click_id?: unknown;
  name?: unknown;
  value?: unknown;
  currency?: unknown;
}

export interface CheckedConversion {
  clickId: string;
  name: string;
  value: number | null;
  currency: string | null;
}

const CONVERSION_LIMITS = { nameMax: 64, clickIdMax: 64, valueMax: 1e12 } as const;

// Control, invisible and direction-changing characters: a name is shown in tables and CSVs.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
// One spelling a number: no sign but a minus, no leading zeros, no negative zero, no spaces.
const DECIMAL = /^(?!-0(?:\.0*)?$)-?(?:0|[1-9]\d{0,12})(?:\.\d{1,6})?$/;
const CURRENCY = /^[A-Za-z]{3}$/;

/** Every field checked, each bad one named; value and currency may come as text (the pixel's query). */
export function checkConversion(input: ConversionInput): CheckedConversion {
  const bag = new FieldErrorBag();
  const clickId = typeof input.click_id === 'string' ? input.click_id.trim() : '';
  if (clickId === '') bag.add('click_id', messages.required('click_id'));
  else if (clickId.length > CONVERSION_LIMITS.clickIdMax)
    bag.add('click_id', messages.maxChars('click_id', CONVERSION_LIMITS.clickIdMax));
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name === '') bag.add('name', messages.required('name'));
  else if (name.length > CONVERSION_LIMITS.nameMax)
    bag.add('name', messages.maxChars('name', CONVERSION_LIMITS.nameMax));
  else if (HIDDEN.test(name)) bag.add('name', messages.hiddenCharacters('name'));
  const value = valueOf(bag, input.value);
  let currency: string | null = null;
  if (input.currency !== undefined && input.currency !== null && input.currency !== '') {
    if (typeof input.currency === 'string' && CURRENCY.test(input.currency)) currency = input.currency.toUpperCase();
    else bag.add('currency', messages.invalid('currency'));
  }
  bag.throwIfAny();
  return { clickId, name, value, currency };
}

function valueOf(bag: FieldErrorBag, raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && DECIMAL.test(raw) ? Number(raw) : NaN;
  // -0 is no spelling of a number (docs/api.md §1): stored, it would read back as 0.
  if (!Number.isFinite(n) || Object.is(n, -0)) bag.add('value', messages.conversionValue());
  else if (Math.abs(n) > CONVERSION_LIMITS.valueMax)
    bag.add('value', messages.max('value', CONVERSION_LIMITS.valueMax));
  else return n;
  return null;
}
