import type { Page, PageRequest } from '../shared/page.ts';
import type { UtmParams } from './utm-params.ts';
import type { UtmTemplate } from './utm-template.ts';

export interface UtmTemplateFilter {
  search?: string | undefined;
  sort: 'asc' | 'desc';
}

export interface UtmTemplateStore {
  insert(accountId: number, fields: { name: string; params: UtmParams }, now: number): Promise<UtmTemplate>;
  update(
    accountId: number,
    id: number,
    fields: { name?: string; params: Partial<UtmParams> },
    now: number,
  ): Promise<UtmTemplate | null>;
  findById(accountId: number, id: number): Promise<UtmTemplate | null>;
  /** Names compare ignoring case. */
  nameTaken(accountId: number, name: string, exceptId?: number): Promise<boolean>;
  list(accountId: number, filter: UtmTemplateFilter, page: PageRequest): Promise<Page<UtmTemplate>>;
  delete(accountId: number, id: number): Promise<boolean>;
}
