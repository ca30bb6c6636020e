import type { AuditActor, AuditChanges } from '../audit/audit-entry.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { Tag } from '../tags/tag.ts';
import type { Link, LinkFields } from './link.ts';

/** A tag as a version keeps it: its id, followed through a rename, and its name, to make it again once deleted. */
export interface VersionTag {
  id: number;
  name: string;
}

/**
 * A link as one of its versions left it: every field a client sets, its pixels and its tags
 * (docs/design/history.md). Secrets are kept as their hashes, so a restore brings a password
 * back; only `changes` is ever shown. `tags` absent: a version written before tags were kept
 * (a restore of it leaves the link's tags as they are).
 */
export type LinkState = LinkFields & { pixelIds: number[]; tags?: VersionTag[] };

/** One version about to be appended, in the unit of work of the change it records. */
export interface NewLinkVersion {
  linkId: number;
  accountId: number;
  at: number;
  actor: AuditActor;
  /** The version a restore brought back; null for every other change. */
  restoredFrom: number | null;
  /** The diff to the previous version (audit-changes.ts: secrets as "changed"). */
  changes: AuditChanges;
  state: LinkState;
}

/** A version as it is read back: its number and its person's name now (null: gone, or none). */
export interface LinkVersion extends NewLinkVersion {
  version: number;
  actorName: string | null;
}

/**
 * Every version of every link, kept for the link's whole life (no retention) and deleted with
 * it. Versions are numbered from 1 per link, in the order they were appended.
 */
export interface LinkHistory {
  /** Appends each version as the next of its link; several versions of one link in order. */
  append(versions: readonly NewLinkVersion[]): Promise<void>;
  /** The link's versions, newest first (an empty page for a link of another account). */
  list(accountId: number, linkId: number, page: PageRequest): Promise<Page<LinkVersion>>;
  find(accountId: number, linkId: number, version: number): Promise<LinkVersion | null>;
  /** Each of these links' last version's state (a link with none is absent). */
  latestStates(linkIds: readonly number[]): Promise<Map<number, LinkState>>;
}

/** The state a version keeps of a link: its settable fields, pixels and tags (when known), nothing the service keeps. */
export function stateOf(link: Link, tags?: readonly Tag[]): LinkState {
  const state: LinkState = {
    domainId: link.domainId,
    spaceId: link.spaceId,
    alias: link.alias,
    url: link.url,
    title: link.title,
    socialCard: link.socialCard,
    targetType: link.targetType,
    targets: link.targets,
    rules: link.rules,
    iosUrl: link.iosUrl,
    androidUrl: link.androidUrl,
    trackConversions: link.trackConversions,
    disabled: link.disabled,
    privacy: link.privacy,
    privacyPasswordHash: link.privacyPasswordHash,
    passwordHash: link.passwordHash,
    expirationUrl: link.expirationUrl,
    expirationClicks: link.expirationClicks,
    endsAt: link.endsAt,
    pixelIds: [...link.pixelIds].sort((a, b) => a - b),
  };
  if (tags) state.tags = tags.map((t) => ({ id: t.id, name: t.name })).sort((a, b) => a.name.localeCompare(b.name));
  return state;
}

/**
 * A version's `tags` change, `[[old names], [new names]]`: by id, so a tag renamed since the
 * version before is no change of the link's; null when the tags are the same or either side is
 * unknown (a version from before tags were kept).
 */
export function tagChange(
  before: readonly VersionTag[] | undefined,
  after: readonly VersionTag[] | undefined,
): [string[], string[]] | null {
  if (!before || !after) return null;
  const ids = (tags: readonly VersionTag[]) => JSON.stringify(tags.map((t) => t.id).sort((a, b) => a - b));
  if (ids(before) === ids(after)) return null;
  return [before.map((t) => t.name), after.map((t) => t.name)];
}
