import type { Page, PageRequest } from '../shared/page.ts';
import type { Space } from './space.ts';

export interface SpaceFilter {
  search?: string | undefined;
  sort: 'asc' | 'desc';
}

export interface SpaceStore {
  insert(accountId: number, fields: { name: string; color: number }, now: number): Promise<Space>;
  update(accountId: number, id: number, fields: { name?: string; color?: number }, now: number): Promise<Space | null>;
  findById(accountId: number, id: number): Promise<Space | null>;
  findByIds(accountId: number, ids: readonly number[]): Promise<Space[]>;
  nameTaken(accountId: number, name: string, exceptId?: number): Promise<boolean>;
  list(accountId: number, filter: SpaceFilter, page: PageRequest): Promise<Page<Space>>;
  /** Deletes the space; its links stay, without a space. */
  delete(accountId: number, id: number): Promise<boolean>;
}
