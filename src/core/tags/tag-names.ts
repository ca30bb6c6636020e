import type { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { TAG_COLOURS, TAG_LIMITS, type TagColour } from './tag.ts';

/** Control, format (zero-width, direction) and line-separator characters: a name must read as it is stored. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The key names are unique by within an account: one tag whatever the case it was typed in. */
export function tagKey(name: string): string {
  return name.toLowerCase();
}

/** One name as stored (NFC, trimmed), or the message that refuses it. */
export function readTagName(raw: string): { name: string } | { fault: 'required' | 'long' | 'hidden' } {
  const name = raw.normalize('NFC').trim();
  if (name.length < TAG_LIMITS.nameMin) return { fault: 'required' };
  if ([...name].length > TAG_LIMITS.nameMax) return { fault: 'long' };
  if (HIDDEN.test(name)) return { fault: 'hidden' };
  return { name };
}

function say(bag: FieldErrorBag, field: string, fault: 'required' | 'long' | 'hidden'): void {
  if (fault === 'required') bag.add(field, messages.required(field));
  else if (fault === 'long') bag.add(field, messages.maxChars(field, TAG_LIMITS.nameMax));
  else bag.add(field, messages.hiddenCharacters(field));
}

/** One tag's name (a rename): the name, or undefined with the fault in the bag. */
export function checkTagName(bag: FieldErrorBag, field: string, raw: string | null | undefined): string | undefined {
  const read = readTagName(raw ?? '');
  if ('fault' in read) {
    say(bag, field, read.fault);
    return undefined;
  }
  return read.name;
}

/**
 * A link's tags: each name read as above, the same name twice (ignoring case) kept once, at most
 * TAG_LIMITS.perLink. Faults are told once under `field` (the first bad name's).
 */
export function checkTagNames(bag: FieldErrorBag, field: string, raw: readonly string[]): string[] {
  const names = new Map<string, string>();
  for (const item of raw) {
    const read = readTagName(item);
    if ('fault' in read) {
      if (!bag.has(field)) say(bag, field, read.fault);
      continue;
    }
    if (!names.has(tagKey(read.name))) names.set(tagKey(read.name), read.name);
  }
  if (names.size > TAG_LIMITS.perLink && !bag.has(field)) bag.add(field, messages.max(field, TAG_LIMITS.perLink));
  return [...names.values()];
}

/** A new tag's colour: drawn from its name, so the same name gets the same colour in every account. */
export function colourFor(name: string): TagColour {
  let hash = 0;
  for (const point of tagKey(name)) hash = (hash * 31 + point.codePointAt(0)!) >>> 0;
  return TAG_COLOURS[hash % TAG_COLOURS.length]!;
}
