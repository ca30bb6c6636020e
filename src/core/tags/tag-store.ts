import type { Tag, TagColour, TagWithCount } from './tag.ts';

export interface TagStore {
  /** The account's tags by name, each with its number of links. */
  list(accountId: number): Promise<TagWithCount[]>;
  findById(accountId: number, id: number): Promise<Tag | null>;
  /** The account's tags of these names (ignoring case), the missing ones created; in the order asked. */
  ensure(accountId: number, names: readonly string[], now: number): Promise<Tag[]>;
  /** Replaces the tags of the account's links among these ids (ids of another account are skipped). */
  setLinkTags(accountId: number, linkIds: readonly number[], tagIds: readonly number[]): Promise<void>;
  /** The tags of these links, each list by name. */
  tagsOfLinks(accountId: number, linkIds: readonly number[]): Promise<Map<number, Tag[]>>;
  /** Another tag of the account already has this name (ignoring case). */
  nameTaken(accountId: number, name: string, exceptId: number): Promise<boolean>;
  update(accountId: number, id: number, fields: { name?: string; color?: TagColour }, now: number): Promise<Tag | null>;
  /** The links lose the tag; the links stay. */
  delete(accountId: number, id: number): Promise<boolean>;
}
