/**
 * Validation messages in the wording phpShort clients already show to people
 * (Laravel's), so a client's error display keeps working.
 */
const label = (field: string): string => field.replace(/_/g, ' ');
const orList = (items: readonly string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

export const messages = {
  required: (f: string) => `The ${label(f)} field is required.`,
  invalid: (f: string) => `The ${label(f)} format is invalid.`,
  selected: (f: string) => `The selected ${label(f)} is invalid.`,
  taken: (f: string) => `The ${label(f)} has already been taken.`,
  integer: (f: string) => `The ${label(f)} field must be an integer.`,
  number: (f: string) => `The ${label(f)} field must be a number.`,
  /** A conversion's value takes fractions and negatives (docs/api.md §1, Conversions): what it accepts, shown. */
  conversionValue: () => 'The value field must be a number such as 12.50 or -3.5.',
  string: (f: string) => `The ${label(f)} field must be a string.`,
  array: (f: string) => `The ${label(f)} field must be an array.`,
  maxChars: (f: string, n: number) => `The ${label(f)} field must not be greater than ${n} characters.`,
  minChars: (f: string, n: number) => `The ${label(f)} field must be at least ${n} characters.`,
  min: (f: string, n: number) => `The ${label(f)} field must be at least ${n}.`,
  max: (f: string, n: number) => `The ${label(f)} field must not be greater than ${n}.`,
  url: (f: string) => `The ${label(f)} field must be a valid URL.`,
  /** A URL whose scheme is not on URL_SCHEMES: the allowed ones, named. */
  urlScheme: (f: string, schemes: readonly string[]) =>
    `The ${label(f)} field must be a URL whose scheme is ${orList(schemes)}.`,
  reserved: (f: string) => `The ${label(f)} is reserved.`,
  requiredWith: (f: string, other: string) => `The ${label(f)} field is required when ${label(other)} is present.`,
  /** privacy 2 is "the statistics page asks for a password": the field it needs, said so. */
  statsPasswordRequired: () =>
    'The privacy password field is required when the statistics page is private with a password (privacy 2).',
  date: (f: string) => `The ${label(f)} field must match the format Y-m-d.`,
  time: (f: string) => `The ${label(f)} field must match the format H:i.`,
  hiddenCharacters: (f: string) =>
    `The ${label(f)} must not contain control, invisible or direction-changing characters.`,
} as const;
