import { FieldErrorBag, NotFoundError, faultsOfCheck, type FieldErrors } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import { noInvalidation, type RedirectInvalidation } from '../redirect/redirect-events.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UrlPolicy } from '../links/url-policy.ts';
import { normalizeHostName, type Domain, type DomainInput } from './domain.ts';
import type { DomainFields, DomainFilter, DomainStore } from './domain-store.ts';

export class DomainsService {
  constructor(
    private readonly store: DomainStore,
    private readonly clock: Clock,
    private readonly urls: UrlPolicy,
    /** Hosts the app answers on itself (APP_URL's host); nobody may claim them. */
    private readonly reservedHosts: readonly string[],
    /** Which host answers for which links lives in the redirect cache. */
    private readonly invalidation: RedirectInvalidation = noInvalidation,
  ) {}

  list(accountId: number, filter: DomainFilter, page: PageRequest): Promise<Page<Domain>> {
    return this.store.list(accountId, filter, page);
  }

  async get(accountId: number, id: number): Promise<Domain> {
    const domain = await this.store.findById(accountId, id);
    if (!domain) throw new NotFoundError('domain');
    return domain;
  }

  async create(accountId: number, input: DomainInput): Promise<Domain> {
    const fields = await this.check(input, true);
    const domain = await this.store.insert(accountId, { indexPage: null, notFoundPage: null, ...fields } as DomainFields, this.clock.now());
    this.invalidation.accountChanged(accountId);
    return domain;
  }

  async update(accountId: number, id: number, input: DomainInput): Promise<Domain> {
    await this.get(accountId, id);
    const fields = await this.check(input, false, id);
    const domain = await this.store.update(accountId, id, fields, this.clock.now());
    if (!domain) throw new NotFoundError('domain');
    this.invalidation.accountChanged(accountId);
    return domain;
  }

  async delete(accountId: number, id: number): Promise<void> {
    if (!(await this.store.delete(accountId, id))) throw new NotFoundError('domain');
    this.invalidation.accountChanged(accountId);
  }

  /** The rule violations of an input, without writing; for an update, 404 first if the record is not the account's. */
  async faultsOf(accountId: number, input: DomainInput, id?: number): Promise<FieldErrors> {
    if (id !== undefined) await this.get(accountId, id);
    return faultsOfCheck(() => this.check(input, id === undefined, id));
  }

  private async check(input: DomainInput, creating: boolean, exceptId?: number): Promise<Partial<DomainFields>> {
    const bag = new FieldErrorBag();
    const fields: Partial<DomainFields> = {};
    if (input.name !== undefined || creating) {
      const name = input.name ? normalizeHostName(input.name) : null;
      if (!input.name) bag.add('name', messages.required('name'));
      else if (!name) bag.add('name', messages.invalid('name'));
      else if (this.reservedHosts.includes(name) || (await this.store.nameTaken(name, exceptId))) {
        bag.add('name', messages.taken('name'));
      } else fields.name = name;
    }
    const indexPage = this.urls.checkOptional(bag, 'index_page', input.index_page);
    if (indexPage !== undefined) fields.indexPage = indexPage;
    const notFoundPage = this.urls.checkOptional(bag, 'not_found_page', input.not_found_page);
    if (notFoundPage !== undefined) fields.notFoundPage = notFoundPage;
    bag.throwIfAny();
    return fields;
  }
}
