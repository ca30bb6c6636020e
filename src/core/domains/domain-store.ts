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
  appleAppSiteAssociation: string | null;
  assetLinks: string | null;
}

/** The proof state of a claim on a name: a new name starts it afresh. */
export interface DomainClaim {
  verificationToken: string;
  verifiedAt: number | null;
}

/** The write would make a second verified domain of one name (another verified it first). */
export const NAME_TAKEN = 'taken';

export interface DomainStore {
  insert(accountId: number, fields: DomainFields & DomainClaim, now: number): Promise<Domain | typeof NAME_TAKEN>;
  update(
    accountId: number,
    id: number,
    fields: Partial<DomainFields & DomainClaim>,
    now: number,
  ): Promise<Domain | null | typeof NAME_TAKEN>;
  findById(accountId: number, id: number): Promise<Domain | null>;
  findByIds(accountId: number, ids: readonly number[]): Promise<Domain[]>;
  /** Across every account: whether a domain of this name is verified. */
  nameVerified(name: string, exceptId?: number): Promise<boolean>;
  /** Whether the account holds this name already, verified or not. */
  nameHeldBy(accountId: number, name: string, exceptId?: number): Promise<boolean>;
  /** Every account's domains of this name, oldest first (the operator's view). */
  claimsOf(name: string): Promise<Domain[]>;
  list(accountId: number, filter: DomainFilter, page: PageRequest): Promise<Page<Domain>>;
  /** Deletes the domain and the links on it (their short URLs cannot answer any more). */
  delete(accountId: number, id: number): Promise<boolean>;
}
