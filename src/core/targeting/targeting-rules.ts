import type { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { UrlPolicy } from '../links/url-policy.ts';
import { normalizeCountryCode } from './countries.ts';
import { normalizeLanguageCode } from './languages.ts';
import {
  PLATFORMS,
  TARGET_LIMITS,
  type KeyedTarget,
  type RotationTarget,
  type TargetListName,
  type Targets,
} from './target.ts';

/** What a client sent for one list: null clears it, undefined leaves it as it is. */
export type TargetListInput =
  Array<{ key?: string | null | undefined; value?: string | null | undefined }> | null | undefined;

const keyNormalizers: Record<Exclude<TargetListName, 'rotation'>, (key: string) => string | null> = {
  country: normalizeCountryCode,
  language: normalizeLanguageCode,
  platform: (key) => (PLATFORMS as readonly string[]).find((p) => p === key) ?? null,
};

export function checkTargetList(
  bag: FieldErrorBag,
  list: TargetListName,
  input: TargetListInput,
  urls: UrlPolicy,
): KeyedTarget[] | RotationTarget[] | null | undefined {
  if (input === undefined) return undefined;
  if (input === null || input.length === 0) return null;
  if (list === 'rotation') return checkRotation(bag, input, urls);
  const seen = new Set<string>();
  const out: KeyedTarget[] = [];
  input.forEach((entry, i) => {
    const keyField = `${list}.${i}.key`;
    const raw = entry.key ?? '';
    const key = raw === '' ? null : keyNormalizers[list](raw);
    if (raw === '') bag.add(keyField, messages.required(keyField));
    else if (key === null) bag.add(keyField, messages.selected(keyField));
    else if (seen.has(key)) bag.add(keyField, `The ${list} ${key} is listed more than once.`);
    const value = checkValue(bag, `${list}.${i}.value`, entry.value, urls);
    if (key !== null && value !== undefined && !seen.has(key)) out.push({ key, value });
    if (key !== null) seen.add(key);
  });
  return out;
}

function checkRotation(bag: FieldErrorBag, input: NonNullable<TargetListInput>, urls: UrlPolicy): RotationTarget[] {
  if (input.length > TARGET_LIMITS.rotationMax) {
    bag.add('rotation', `The rotation field must not have more than ${TARGET_LIMITS.rotationMax} items.`);
  }
  const out: RotationTarget[] = [];
  input.forEach((entry, i) => {
    const value = checkValue(bag, `rotation.${i}.value`, entry.value, urls);
    if (value !== undefined) out.push({ value });
  });
  return out;
}

function checkValue(bag: FieldErrorBag, field: string, raw: string | null | undefined, urls: UrlPolicy) {
  if (raw === undefined || raw === null || raw.trim() === '') {
    bag.add(field, messages.required(field));
    return undefined;
  }
  return urls.check(bag, field, raw);
}

export function emptyTargets(): Targets {
  return { country: null, platform: null, language: null, rotation: null };
}
