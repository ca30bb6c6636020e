import { isValidTimeZone } from '../expiration/ends-at.ts';
import type { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { isRole, isScope, type Role, type Scope } from './policy.ts';
import type { WorkspaceSettings } from './workspace.ts';

const NAME_MAX = 255;

export interface SettingsInput {
  name?: string | undefined;
  require_2fa?: boolean | undefined;
  timezone?: string | undefined;
}

/** A workspace's settings: what is not given keeps its current value. */
export function checkSettings(input: SettingsInput, current: WorkspaceSettings, bag: FieldErrorBag): WorkspaceSettings {
  const name = input.name === undefined ? current.name : input.name.trim();
  const timezone = input.timezone ?? current.timezone;
  if (name.length === 0) bag.add('name', messages.required('name'));
  else if (name.length > NAME_MAX) bag.add('name', messages.maxChars('name', NAME_MAX));
  if (!isValidTimeZone(timezone)) bag.add('timezone', messages.selected('timezone'));
  return { name, timezone, requireTwoFactor: input.require_2fa ?? current.requireTwoFactor };
}

export function checkRole(value: unknown, bag: FieldErrorBag, field = 'role'): Role {
  if (isRole(value)) return value;
  bag.add(field, messages.selected(field));
  return 'viewer';
}

/** Null or absent: every scope the role allows; an empty list is refused (a key that may do nothing). */
export function checkScopes(
  value: readonly unknown[] | null | undefined,
  bag: FieldErrorBag,
  field = 'scopes',
): Scope[] | null {
  if (value === null || value === undefined) return null;
  if (value.length === 0 || !value.every(isScope)) {
    bag.add(field, messages.selected(field));
    return null;
  }
  return [...new Set(value as Scope[])];
}

export function checkExpiry(
  expiresAt: number | null | undefined,
  now: number,
  bag: FieldErrorBag,
  field = 'expires_at',
): number | null {
  if (expiresAt === null || expiresAt === undefined) return null;
  if (!(expiresAt > now)) bag.add(field, `The ${field.replace('_', ' ')} must be a date in the future.`);
  return expiresAt;
}
