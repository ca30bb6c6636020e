import type { Page, PageRequest } from '../shared/page.ts';
import type { Domain } from './domain.ts';

export interface DomainFilter {
  search?: string | undefined;
  sort: 'asc' | 'desc';
}

export interface DomainFields {
  name: string;
  indexPage: string | null;
  notFoundPage: string | null;
}

export interface DomainStore {
  insert(accountId: number, fields: DomainFields, now: number): Promise<Domain>;
  update(accountId: number, id: number, fields: Partial<DomainFields>, now: number): Promise<Domain | null>;
  findById(accountId: number, id: number): Promise<Domain | null>;
  findByIds(accountId: number, ids: readonly number[]): Promise<Domain[]>;
  /** Across every account: host names are unique service-wide. */
  nameTaken(name: string, exceptId?: number): Promise<boolean>;
  list(accountId: number, filter: DomainFilter, page: PageRequest): Promise<Page<Domain>>;
  /** Deletes the domain and the links on it (their short URLs cannot answer any more). */
  delete(accountId: number, id: number): Promise<boolean>;
}
