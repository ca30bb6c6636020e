/** A change as it travels between instances. */
export type Change =
  { kind: 'link'; id: number; alias?: string | undefined } | { kind: 'account'; id: number } | { kind: 'all' };

/** `link 12 alias`, `link 12`, `account 3`, `all`: aliases hold no spaces (ALIAS_PATTERN). */
export function encodeChange(change: Change): string {
  if (change.kind === 'all') return 'all';
  if (change.kind === 'account') return `account ${change.id}`;
  return change.alias === undefined ? `link ${change.id}` : `link ${change.id} ${change.alias}`;
}

/**
 * The change a message body names, or null for anything else. The unnumbered `link:12` and
 * `account:3` of earlier versions are read too, so a rolling upgrade loses no change.
 */
export function decodeChange(text: string): Change | null {
  if (text === 'all') return { kind: 'all' };
  const [kind, raw, alias, ...rest] = text.split(/[ :]/);
  const id = Number(raw);
  if (rest.length > 0 || !Number.isSafeInteger(id) || raw === '') return null;
  if (kind === 'account' && alias === undefined) return { kind, id };
  if (kind === 'link') return alias === undefined || alias === '' ? { kind, id } : { kind, id, alias };
  return null;
}
