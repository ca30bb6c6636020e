import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Link, LinkFields } from './link.ts';
import type { LinkState } from './link-history.ts';
import type { LinkChangePorts } from './links-service.ts';

/**
 * The fields that put a link back as a version left it (docs/design/history.md): the domain is
 * the link's for good, an operator's takedown stays, and a space or pixel deleted since is left
 * out rather than refused (the version's state cannot be edited to drop it).
 */
export async function restoredFields(
  ports: Pick<LinkChangePorts, 'links' | 'spaces' | 'pixels'>,
  existing: Link,
  state: LinkState,
): Promise<{ fields: Partial<LinkFields>; pixelIds: number[] }> {
  const { domainId: _domain, pixelIds: wanted, ...rest } = state;
  const fields: Partial<LinkFields> = { ...rest };
  if (existing.blockedAt !== null) fields.disabled = 1;
  if (state.spaceId !== null && !(await ports.spaces.findById(existing.accountId, state.spaceId)))
    fields.spaceId = null;
  const pixels = wanted.length === 0 ? [] : await ports.pixels.findByIds(existing.accountId, wanted);
  const kept = new Set(pixels.map((p) => p.id));
  const sameAlias = state.alias.toLowerCase() === existing.alias.toLowerCase();
  if (!sameAlias && (await ports.links.aliasTaken(existing.domainId, state.alias, existing.id)))
    throw ValidationError.of('alias', messages.taken('alias'));
  return { fields, pixelIds: wanted.filter((id) => kept.has(id)) };
}

/**
 * The names of the tags a version had, as the restore gives them back (tagLinks makes the
 * missing ones): a tag renamed since is found by its id and keeps its new name, a deleted one
 * is made again by its name. undefined: the version kept no tags, the link's stay as they are.
 */
export async function restoredTagNames(
  ports: Pick<LinkChangePorts, 'tags'>,
  accountId: number,
  state: LinkState,
): Promise<string[] | undefined> {
  const { tags } = ports;
  if (!state.tags || !tags) return undefined;
  const names: string[] = [];
  for (const kept of state.tags) names.push((await tags.findById(accountId, kept.id))?.name ?? kept.name);
  return names;
}

/** A version that is not the link's: as a link of another workspace, not found. */
export function versionNotFound(): never {
  throw new NotFoundError('version');
}
