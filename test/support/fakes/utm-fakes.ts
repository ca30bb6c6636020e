import type { Page, PageRequest } from '../../../src/core/shared/page.ts';
import type { UtmParams } from '../../../src/core/utm/utm-params.ts';
import type { UtmTemplate } from '../../../src/core/utm/utm-template.ts';
import type { UtmTemplateFilter, UtmTemplateStore } from '../../../src/core/utm/utm-template-store.ts';
import { listed } from './owned-rows.ts';

/** The UtmTemplateStore in memory, for the service's unit tests: names compared lower-cased. */
export class MemoryUtmTemplateStore implements UtmTemplateStore {
  rows: UtmTemplate[] = [];
  async insert(accountId: number, fields: { name: string; params: UtmParams }, now: number) {
    const row = {
      id: this.rows.length + 1,
      accountId,
      name: fields.name,
      params: { ...fields.params },
      createdAt: now,
      updatedAt: now,
    };
    this.rows.push(row);
    return { ...row, params: { ...row.params } };
  }
  async update(accountId: number, id: number, fields: { name?: string; params: Partial<UtmParams> }, now: number) {
    const row = this.rows.find((r) => r.accountId === accountId && r.id === id);
    if (!row) return null;
    Object.assign(row, { name: fields.name ?? row.name, params: { ...row.params, ...fields.params }, updatedAt: now });
    return { ...row, params: { ...row.params } };
  }
  async findById(accountId: number, id: number) {
    const row = this.rows.find((r) => r.accountId === accountId && r.id === id);
    return row ? { ...row, params: { ...row.params } } : null;
  }
  async nameTaken(accountId: number, name: string, exceptId?: number) {
    return this.rows.some(
      (r) => r.accountId === accountId && r.id !== exceptId && r.name.toLowerCase() === name.toLowerCase(),
    );
  }
  async list(accountId: number, filter: UtmTemplateFilter, page: PageRequest): Promise<Page<UtmTemplate>> {
    return listed(this.rows, accountId, filter, page);
  }
  async delete(accountId: number, id: number) {
    const before = this.rows.length;
    this.rows = this.rows.filter((r) => !(r.accountId === accountId && r.id === id));
    return this.rows.length < before;
  }
}
