import type { Page, PageRequest } from '../shared/page.ts';
import type { Link, LinkFields, LinkFilter } from './link.ts';

export interface LinkStore {
  /** Inserts the link and its pixel attachments in one transaction; a taken alias raises a ValidationError. */
  insert(accountId: number, fields: LinkFields, pixelIds: readonly number[], now: number): Promise<Link>;
  /** pixelIds undefined leaves attachments as they are. */
  update(accountId: number, id: number, fields: Partial<LinkFields>, pixelIds: readonly number[] | undefined, now: number): Promise<Link | null>;
  findById(accountId: number, id: number): Promise<Link | null>;
  /** Whoever owns it: for pages that decide by the link's own settings (public statistics). */
  findAnyById(id: number): Promise<Link | null>;
  /** Case-insensitive, within one domain (null: the default domain). */
  aliasTaken(domainId: number | null, alias: string, exceptId?: number): Promise<boolean>;
  list(accountId: number, filter: LinkFilter, page: PageRequest, now: number): Promise<Page<Link>>;
  delete(accountId: number, id: number): Promise<boolean>;
  setTitle(id: number, title: string): Promise<void>;
}
