import { FieldErrorBag, NotFoundError, faultsOfCheck, type FieldErrors } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import { isTagColour, type Tag, type TagColour, type TagInput, type TagWithCount } from './tag.ts';
import { checkTagName } from './tag-names.ts';
import type { TagStore } from './tag-store.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import { recordChange, unaudited, type AuditedUnit } from '../audit/record-change.ts';

/** The account's tags as a list to manage: rename, recolour, delete. Tags are created by naming them on a link. */
export class TagsService {
  constructor(
    private readonly store: TagStore,
    private readonly clock: Clock,
    /** A change and its audit entry commit together (docs/design/teams.md); absent: no entries. */
    private readonly unit: AuditedUnit<TagStore> = unaudited(store),
  ) {}

  list(accountId: number): Promise<TagWithCount[]> {
    return this.store.list(accountId);
  }

  async get(accountId: number, id: number): Promise<Tag> {
    const tag = await this.store.findById(accountId, id);
    if (!tag) throw new NotFoundError('tag');
    return tag;
  }

  async update(accountId: number, id: number, input: TagInput, actor: AuditActor): Promise<Tag> {
    const before = await this.get(accountId, id);
    const fields = await this.check(accountId, id, input);
    const change = { workspaceId: accountId, actor, type: 'tag', at: this.clock.now() };
    return this.unit(async (tx) => {
      const tag = await tx.store.update(accountId, id, fields, change.at);
      if (!tag) throw new NotFoundError('tag');
      await recordChange(tx.audit, change, before, tag);
      return tag;
    });
  }

  async delete(accountId: number, id: number, actor: AuditActor): Promise<void> {
    const change = { workspaceId: accountId, actor, type: 'tag', at: this.clock.now() };
    await this.unit(async (tx) => {
      const before = await tx.store.findById(accountId, id);
      if (!before || !(await tx.store.delete(accountId, id))) throw new NotFoundError('tag');
      await recordChange(tx.audit, change, before, null);
    });
  }

  /** The rule violations of an update, without writing; 404 first when the tag is not the account's. */
  async faultsOf(accountId: number, id: number, input: TagInput): Promise<FieldErrors> {
    await this.get(accountId, id);
    return faultsOfCheck(() => this.check(accountId, id, input));
  }

  private async check(accountId: number, id: number, input: TagInput) {
    const bag = new FieldErrorBag();
    const fields: { name?: string; color?: TagColour } = {};
    if (input.name !== undefined) {
      const name = checkTagName(bag, 'name', input.name);
      if (name !== undefined && (await this.store.nameTaken(accountId, name, id)))
        bag.add('name', messages.taken('name'));
      else if (name !== undefined) fields.name = name;
    }
    if (input.color !== undefined) {
      if (input.color !== null && isTagColour(input.color)) fields.color = input.color;
      else bag.add('color', messages.selected('color'));
    }
    bag.throwIfAny();
    return fields;
  }
}
