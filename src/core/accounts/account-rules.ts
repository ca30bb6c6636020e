import { type FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { isValidTimeZone } from '../expiration/ends-at.ts';
import type { NewAccount } from './account.ts';

const EMAIL = /^[^\s@<>"']+@[^\s@<>"']+\.[^\s@<>"']+$/;
const PASSWORD_LIMITS = { min: 8, max: 256 } as const;

export interface ProfileInput {
  email: string;
  name?: string | undefined;
  timezone?: string | undefined;
}

/** An account's profile, normalised (email lower-cased, name defaulting to the email's local part). */
export function checkProfile(input: ProfileInput, bag: FieldErrorBag): NewAccount {
  const email = input.email.trim().toLowerCase();
  const name = (input.name ?? '').trim() || (email.split('@')[0] ?? email);
  const timezone = input.timezone ?? 'UTC';
  if (!EMAIL.test(email) || email.length > 255) bag.add('email', messages.invalid('email'));
  if (name.length === 0 || name.length > 255) bag.add('name', messages.maxChars('name', 255));
  if (!isValidTimeZone(timezone)) bag.add('timezone', messages.selected('timezone'));
  return { email, name, timezone };
}

/** Length only (NIST SP 800-63B): composition rules make passwords worse, not stronger. */
export function checkPassword(password: string, bag: FieldErrorBag, field = 'password'): void {
  if (password.length < PASSWORD_LIMITS.min) bag.add(field, messages.minChars(field, PASSWORD_LIMITS.min));
  else if (password.length > PASSWORD_LIMITS.max) bag.add(field, messages.maxChars(field, PASSWORD_LIMITS.max));
}
