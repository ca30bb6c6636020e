import { FieldErrorBag, NotFoundError, faultsOfCheck, type FieldErrors } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import { checkName } from '../shared/text-rules.ts';
import { UTM_LIMITS, emptyUtm, type UtmParams } from './utm-params.ts';
import { checkUtmParams, hasControlCharacters } from './utm-rules.ts';
import type { UtmTemplate, UtmTemplateInput } from './utm-template.ts';
import type { UtmTemplateFilter, UtmTemplateStore } from './utm-template-store.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import { recordChange, unaudited, type AuditedUnit } from '../audit/record-change.ts';

export class UtmTemplatesService {
  constructor(
    private readonly store: UtmTemplateStore,
    private readonly clock: Clock,
    /** A change and its audit entry commit together (docs/design/teams.md); absent: no entries. */
    private readonly unit: AuditedUnit<UtmTemplateStore> = unaudited(store),
  ) {}

  list(accountId: number, filter: UtmTemplateFilter, page: PageRequest): Promise<Page<UtmTemplate>> {
    return this.store.list(accountId, filter, page);
  }

  /** The account's template, or null (another account's is none). */
  find(accountId: number, id: number): Promise<UtmTemplate | null> {
    return this.store.findById(accountId, id);
  }

  async get(accountId: number, id: number): Promise<UtmTemplate> {
    const template = await this.store.findById(accountId, id);
    if (!template) throw new NotFoundError('utm_template');
    return template;
  }

  async create(accountId: number, input: UtmTemplateInput, actor: AuditActor): Promise<UtmTemplate> {
    const fields = await this.check(accountId, input, true);
    const change = { workspaceId: accountId, actor, type: 'utm_template', at: this.clock.now() };
    return this.unit(async (tx) => {
      const template = await tx.store.insert(
        accountId,
        { name: fields.name!, params: { ...emptyUtm(), ...fields.params } },
        change.at,
      );
      await recordChange(tx.audit, change, null, template);
      return template;
    });
  }

  async update(accountId: number, id: number, input: UtmTemplateInput, actor: AuditActor): Promise<UtmTemplate> {
    const before = await this.get(accountId, id);
    const fields = await this.check(accountId, input, false, id);
    const change = { workspaceId: accountId, actor, type: 'utm_template', at: this.clock.now() };
    return this.unit(async (tx) => {
      const template = await tx.store.update(accountId, id, fields, change.at);
      if (!template) throw new NotFoundError('utm_template');
      await recordChange(tx.audit, change, before, template);
      return template;
    });
  }

  async delete(accountId: number, id: number, actor: AuditActor): Promise<void> {
    const change = { workspaceId: accountId, actor, type: 'utm_template', at: this.clock.now() };
    await this.unit(async (tx) => {
      const before = await tx.store.findById(accountId, id);
      if (!before || !(await tx.store.delete(accountId, id))) throw new NotFoundError('utm_template');
      await recordChange(tx.audit, change, before, null);
    });
  }

  /** The rule violations of an input, without writing; for an update, 404 first if the template is not the account's. */
  async faultsOf(accountId: number, input: UtmTemplateInput, id?: number): Promise<FieldErrors> {
    if (id !== undefined) await this.get(accountId, id);
    return faultsOfCheck(() => this.check(accountId, input, id === undefined, id));
  }

  private async check(accountId: number, input: UtmTemplateInput, creating: boolean, exceptId?: number) {
    const bag = new FieldErrorBag();
    let name = checkName(bag, 'name', input.name, UTM_LIMITS.nameMax, creating);
    if (name !== undefined && hasControlCharacters(name)) {
      bag.add('name', messages.invalid('name'));
      name = undefined;
    }
    if (name !== undefined && (await this.store.nameTaken(accountId, name, exceptId)))
      bag.add('name', messages.taken('name'));
    const params: Partial<UtmParams> = checkUtmParams(bag, input);
    bag.throwIfAny();
    return { ...(name === undefined ? {} : { name }), params };
  }
}
