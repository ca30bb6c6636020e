import { normaliseEmail } from '../accounts/email.ts';

/** Whether an email's domain may sign in with the provider: any when the list is empty, none without an email. */
export function emailDomainAllowed(email: string | null, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true;
  if (email === null) return false;
  const normalised = normaliseEmail(email);
  return allowedDomains.includes(normalised.slice(normalised.lastIndexOf('@') + 1).toLowerCase());
}
