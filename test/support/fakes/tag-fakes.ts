import type { Tag, TagColour, TagWithCount } from '../../../src/core/tags/tag.ts';
import { colourFor, tagKey } from '../../../src/core/tags/tag-names.ts';
import type { TagStore } from '../../../src/core/tags/tag-store.ts';
import { ValidationError } from '../../../src/core/shared/errors.ts';
import { messages } from '../../../src/core/shared/messages.ts';

/** As the SQL store orders them: lower-cased names by code unit, then id (not by locale). */
const byName = (a: Tag, b: Tag) =>
  tagKey(a.name) < tagKey(b.name) ? -1 : tagKey(a.name) > tagKey(b.name) ? 1 : a.id - b.id;

/** The TagStore in memory: tags per account by lowered name, and the pairs of links and tags. */
export class MemoryTagStore implements TagStore {
  readonly tags: Tag[] = [];
  /** link id → tag ids. */
  readonly links = new Map<number, number[]>();
  private nextId = 1;

  /** Which account owns a link (the fake has no links table). */
  constructor(private readonly ownerOf: (linkId: number) => number | undefined = () => undefined) {}

  list(accountId: number): Promise<TagWithCount[]> {
    const count = (id: number) => [...this.links.values()].filter((ids) => ids.includes(id)).length;
    return Promise.resolve(
      this.tags
        .filter((t) => t.accountId === accountId)
        .map((t) => ({ ...t, links: count(t.id) }))
        .sort(byName),
    );
  }

  findById(accountId: number, id: number): Promise<Tag | null> {
    const found = this.tags.find((t) => t.accountId === accountId && t.id === id);
    return Promise.resolve(found ? { ...found } : null);
  }

  ensure(accountId: number, names: readonly string[], now: number): Promise<Tag[]> {
    return Promise.resolve(
      names.map((name) => {
        const found = this.tags.find((t) => t.accountId === accountId && tagKey(t.name) === tagKey(name));
        if (found) return { ...found };
        const tag: Tag = { id: this.nextId++, accountId, name, color: colourFor(name), createdAt: now, updatedAt: now };
        this.tags.push(tag);
        return { ...tag };
      }),
    );
  }

  setLinkTags(accountId: number, linkIds: readonly number[], tagIds: readonly number[]): Promise<void> {
    for (const id of linkIds) if ((this.ownerOf(id) ?? accountId) === accountId) this.links.set(id, [...tagIds]);
    return Promise.resolve();
  }

  tagsOfLinks(accountId: number, linkIds: readonly number[]): Promise<Map<number, Tag[]>> {
    const map = new Map<number, Tag[]>();
    for (const id of linkIds) {
      const tags = (this.links.get(id) ?? [])
        .flatMap((tagId) => this.tags.filter((t) => t.id === tagId && t.accountId === accountId))
        .map((t) => ({ ...t }));
      if (tags.length > 0) map.set(id, tags.sort(byName));
    }
    return Promise.resolve(map);
  }

  nameTaken(accountId: number, name: string, exceptId: number): Promise<boolean> {
    return Promise.resolve(
      this.tags.some((t) => t.accountId === accountId && t.id !== exceptId && tagKey(t.name) === tagKey(name)),
    );
  }

  update(
    accountId: number,
    id: number,
    fields: { name?: string; color?: TagColour },
    now: number,
  ): Promise<Tag | null> {
    const tag = this.tags.find((t) => t.accountId === accountId && t.id === id);
    if (!tag) return Promise.resolve(null);
    // As the unique index of (account, lower-cased name).
    if (
      fields.name !== undefined &&
      this.tags.some((t) => t.accountId === accountId && t.id !== id && tagKey(t.name) === tagKey(fields.name!))
    )
      return Promise.reject(ValidationError.of('name', messages.taken('name')));
    Object.assign(tag, fields, { updatedAt: now });
    return Promise.resolve({ ...tag });
  }

  delete(accountId: number, id: number): Promise<boolean> {
    const at = this.tags.findIndex((t) => t.accountId === accountId && t.id === id);
    if (at === -1) return Promise.resolve(false);
    this.tags.splice(at, 1);
    for (const [link, ids] of this.links)
      this.links.set(
        link,
        ids.filter((t) => t !== id),
      );
    return Promise.resolve(true);
  }
}
