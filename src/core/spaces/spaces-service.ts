import { FieldErrorBag, NotFoundError, faultsOfCheck, type FieldErrors } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import { checkName } from '../shared/text-rules.ts';
import { SPACE_LIMITS, type Space, type SpaceInput } from './space.ts';
import type { SpaceFilter, SpaceStore } from './space-store.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import { recordChange, unaudited, type AuditedUnit } from '../audit/record-change.ts';

export class SpacesService {
  constructor(
    private readonly store: SpaceStore,
    private readonly clock: Clock,
    /** A change and its audit entry commit together (docs/design/teams.md); absent: no entries. */
    private readonly unit: AuditedUnit<SpaceStore> = unaudited(store),
  ) {}

  list(accountId: number, filter: SpaceFilter, page: PageRequest): Promise<Page<Space>> {
    return this.store.list(accountId, filter, page);
  }

  async get(accountId: number, id: number): Promise<Space> {
    const space = await this.store.findById(accountId, id);
    if (!space) throw new NotFoundError('space');
    return space;
  }

  async create(accountId: number, input: SpaceInput, actor: AuditActor): Promise<Space> {
    const fields = await this.check(accountId, input, true);
    const change = { workspaceId: accountId, actor, type: 'space', at: this.clock.now() };
    return this.unit(async (tx) => {
      const space = await tx.store.insert(accountId, { name: fields.name!, color: fields.color ?? 1 }, change.at);
      await recordChange(tx.audit, change, null, space);
      return space;
    });
  }

  async update(accountId: number, id: number, input: SpaceInput, actor: AuditActor): Promise<Space> {
    const before = await this.get(accountId, id);
    const fields = await this.check(accountId, input, false, id);
    const change = { workspaceId: accountId, actor, type: 'space', at: this.clock.now() };
    return this.unit(async (tx) => {
      const space = await tx.store.update(accountId, id, fields, change.at);
      if (!space) throw new NotFoundError('space');
      await recordChange(tx.audit, change, before, space);
      return space;
    });
  }

  async delete(accountId: number, id: number, actor: AuditActor): Promise<void> {
    const change = { workspaceId: accountId, actor, type: 'space', at: this.clock.now() };
    await this.unit(async (tx) => {
      const before = await tx.store.findById(accountId, id);
      if (!before || !(await tx.store.delete(accountId, id))) throw new NotFoundError('space');
      await recordChange(tx.audit, change, before, null);
    });
  }

  /** The rule violations of an input, without writing; for an update, 404 first if the record is not the account's. */
  async faultsOf(accountId: number, input: SpaceInput, id?: number): Promise<FieldErrors> {
    if (id !== undefined) await this.get(accountId, id);
    return faultsOfCheck(() => this.check(accountId, input, id === undefined, id));
  }

  private async check(accountId: number, input: SpaceInput, creating: boolean, exceptId?: number) {
    const bag = new FieldErrorBag();
    const fields: { name?: string; color?: number } = {};
    const name = checkName(bag, 'name', input.name, SPACE_LIMITS.nameMax, creating);
    if (name !== undefined) {
      if (await this.store.nameTaken(accountId, name, exceptId)) bag.add('name', messages.taken('name'));
      fields.name = name;
    }
    if (input.color !== undefined) {
      if (input.color < SPACE_LIMITS.colorMin || input.color > SPACE_LIMITS.colorMax) {
        bag.add('color', messages.selected('color'));
      }
      fields.color = input.color;
    }
    bag.throwIfAny();
    return fields;
  }
}
