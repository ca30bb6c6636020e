import type { Page, PageRequest } from '../shared/page.ts';
import type { Pixel, PixelType } from './pixel.ts';

export interface PixelFilter {
  search?: string | undefined;
  type?: PixelType | undefined;
  sort: 'asc' | 'desc';
}

export interface PixelFields {
  name: string;
  type: PixelType;
  value: string;
}

export interface PixelStore {
  insert(accountId: number, fields: PixelFields, now: number): Promise<Pixel>;
  update(accountId: number, id: number, fields: Partial<PixelFields>, now: number): Promise<Pixel | null>;
  findById(accountId: number, id: number): Promise<Pixel | null>;
  findByIds(accountId: number, ids: readonly number[]): Promise<Pixel[]>;
  nameTaken(accountId: number, name: string, exceptId?: number): Promise<boolean>;
  list(accountId: number, filter: PixelFilter, page: PageRequest): Promise<Page<Pixel>>;
  /** Deletes the pixel and detaches it from every link. */
  delete(accountId: number, id: number): Promise<boolean>;
}
