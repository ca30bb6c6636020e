import { type FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { isValidTimeZone } from '../expiration/ends-at.ts';
import type { NewAccount } from './account.ts';
import { hasHiddenCharacters, normaliseEmail } from './email.ts';

const EMAIL = /^[^\s@<>"']+@[^\s@<>"']+\.[^\s@<>"']+$/;
const PASSWORD_LIMITS = { min: 8, max: 256 } as const;

export interface ProfileInput {
  email: string;
  name?: string | undefined;
  timezone?: string | undefined;
}

/**
 * An account's profile, normalised (email in NFC, trimmed and lower-cased; name defaulting to
 * the email's local part). An email with characters that show nothing or reorder the text is
 * refused: it would print like another account's.
 */
export function checkProfile(input: ProfileInput, bag: FieldErrorBag): NewAccount {
  const email = normaliseEmail(input.email);
  const name = (input.name ?? '').trim() || (email.split('@')[0] ?? email);
  const timezone = input.timezone ?? 'UTC';
  checkEmail(email, bag);
  if (name.length === 0 || name.length > 255) bag.add('name', messages.maxChars('name', 255));
  if (!isValidTimeZone(timezone)) bag.add('timezone', messages.selected('timezone'));
  return { email, name, timezone };
}

/** An email already normalised: shown as itself, never like another one. */
export function checkEmail(email: string, bag: FieldErrorBag, field = 'email'): void {
  if (hasHiddenCharacters(email)) bag.add(field, messages.hiddenCharacters(field));
  else if (!EMAIL.test(email) || email.length > 255) bag.add(field, messages.invalid(field));
}

/** Length only (NIST SP 800-63B): composition rules make passwords worse, not stronger. */
export function checkPassword(password: string, bag: FieldErrorBag, field = 'password'): void {
  if (password.length < PASSWORD_LIMITS.min) bag.add(field, messages.minChars(field, PASSWORD_LIMITS.min));
  else if (password.length > PASSWORD_LIMITS.max) bag.add(field, messages.maxChars(field, PASSWORD_LIMITS.max));
}

/** The longest name an API key may have (the column's width). */
export const KEY_NAME_MAX = 64;

/** A key's name tells its owner's keys apart ("Zapier", "laptop"): required, trimmed. */
export function checkKeyName(name: string, bag: FieldErrorBag, field = 'name'): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) bag.add(field, messages.required(field));
  else if (trimmed.length > KEY_NAME_MAX) bag.add(field, messages.maxChars(field, KEY_NAME_MAX));
  return trimmed;
}

/**
 * Deleting an account asks its owner to type its email: a slip of the mouse deletes nothing.
 * Case and surrounding spaces do not matter; anything else does.
 */
export function checkDeletionConfirmation(
  account: { email: string },
  typed: string,
  bag: FieldErrorBag,
  field = 'confirmation',
): void {
  if (normaliseEmail(typed) !== normaliseEmail(account.email)) bag.add(field, `Type ${account.email} to confirm.`);
}
