import { FieldErrorBag, NotFoundError, faultsOfCheck, type FieldErrors } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import { noInvalidation, type RedirectInvalidation } from '../redirect/redirect-events.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import { checkName } from '../shared/text-rules.ts';
import { PIXEL_LIMITS, PIXEL_VALUE_PATTERN, isPixelType, type Pixel, type PixelInput } from './pixel.ts';
import type { PixelFields, PixelFilter, PixelStore } from './pixel-store.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import { recordChange, unaudited, type AuditedUnit } from '../audit/record-change.ts';

export class PixelsService {
  constructor(
    private readonly store: PixelStore,
    private readonly clock: Clock,
    /** Links carry their pixels into the redirect cache. */
    private readonly invalidation: RedirectInvalidation = noInvalidation,
    /** A change and its audit entry commit together (docs/design/teams.md); absent: no entries. */
    private readonly unit: AuditedUnit<PixelStore> = unaudited(store),
  ) {}

  list(accountId: number, filter: PixelFilter, page: PageRequest): Promise<Page<Pixel>> {
    return this.store.list(accountId, filter, page);
  }

  async get(accountId: number, id: number): Promise<Pixel> {
    const pixel = await this.store.findById(accountId, id);
    if (!pixel) throw new NotFoundError('pixel');
    return pixel;
  }

  async create(accountId: number, input: PixelInput, actor: AuditActor): Promise<Pixel> {
    const fields = await this.check(accountId, input, true);
    const change = { workspaceId: accountId, actor, type: 'pixel', at: this.clock.now() };
    return this.unit(async (tx) => {
      const pixel = await tx.store.insert(accountId, fields as PixelFields, change.at);
      await recordChange(tx.audit, change, null, pixel);
      return pixel;
    });
  }

  async update(accountId: number, id: number, input: PixelInput, actor: AuditActor): Promise<Pixel> {
    const before = await this.get(accountId, id);
    const fields = await this.check(accountId, input, false, id);
    const change = { workspaceId: accountId, actor, type: 'pixel', at: this.clock.now() };
    const pixel = await this.unit(async (tx) => {
      const pixel = await tx.store.update(accountId, id, fields, change.at);
      if (!pixel) throw new NotFoundError('pixel');
      await recordChange(tx.audit, change, before, pixel);
      return pixel;
    });
    this.invalidation.accountChanged(accountId);
    return pixel;
  }

  async delete(accountId: number, id: number, actor: AuditActor): Promise<void> {
    const change = { workspaceId: accountId, actor, type: 'pixel', at: this.clock.now() };
    await this.unit(async (tx) => {
      const before = await tx.store.findById(accountId, id);
      if (!before || !(await tx.store.delete(accountId, id))) throw new NotFoundError('pixel');
      await recordChange(tx.audit, change, before, null);
    });
    this.invalidation.accountChanged(accountId);
  }

  /** The rule violations of an input, without writing; for an update, 404 first if the record is not the account's. */
  async faultsOf(accountId: number, input: PixelInput, id?: number): Promise<FieldErrors> {
    if (id !== undefined) await this.get(accountId, id);
    return faultsOfCheck(() => this.check(accountId, input, id === undefined, id));
  }

  private async check(accountId: number, input: PixelInput, creating: boolean, exceptId?: number) {
    const bag = new FieldErrorBag();
    const fields: Partial<PixelFields> = {};
    const name = checkName(bag, 'name', input.name, PIXEL_LIMITS.nameMax, creating);
    if (name !== undefined) {
      if (await this.store.nameTaken(accountId, name, exceptId)) bag.add('name', messages.taken('name'));
      fields.name = name;
    }
    if (input.type !== undefined || creating) {
      if (input.type === undefined) bag.add('type', messages.required('type'));
      else if (!isPixelType(input.type)) bag.add('type', messages.selected('type'));
      else fields.type = input.type;
    }
    const value = checkName(bag, 'value', input.value, PIXEL_LIMITS.valueMax, creating);
    if (value !== undefined) {
      if (!PIXEL_VALUE_PATTERN.test(value)) bag.add('value', messages.invalid('value'));
      fields.value = value;
    }
    bag.throwIfAny();
    return fields;
  }
}
