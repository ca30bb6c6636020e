import type { AuditActor } from '../../../core/audit/audit-entry.ts';
import type { FieldErrors } from '../../../core/shared/errors.ts';
import type { Page, PageRequest } from '../../../core/shared/page.ts';

/** The shape pixels, spaces and domains share: account-owned records with the same five operations. */
export interface OwnedRecordService<T, F, I> {
  list(accountId: number, filter: F, page: PageRequest): Promise<Page<T>>;
  get(accountId: number, id: number): Promise<T>;
  create(accountId: number, input: I, actor: AuditActor): Promise<T>;
  update(accountId: number, id: number, input: I, actor: AuditActor): Promise<T>;
  delete(accountId: number, id: number, actor: AuditActor): Promise<void>;
  /** The rule violations of an input, without writing (404 first when updating a record not the account's). */
  faultsOf(accountId: number, input: I, id?: number): Promise<FieldErrors>;
}
