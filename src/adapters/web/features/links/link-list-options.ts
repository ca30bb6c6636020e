import type { Page, PageRequest } from '../../../../core/shared/page.ts';
import type { WebContext } from '../../app/web-context.ts';

export interface Choice {
  id: number;
  name: string;
}

/** The account's spaces, domains and pixels, for the filters and the "move to space" action. */
export interface FilterChoices {
  spaces: Choice[];
  domains: Choice[];
  pixels: Choice[];
}

/** Pages of 100 (the services' largest); an account with more than this many of one kind is not a case of ours. */
const MAX_PAGES = 20;

async function every<T extends Choice>(fetch: (page: PageRequest) => Promise<Page<T>>): Promise<Choice[]> {
  const out: Choice[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const found = await fetch({ page, perPage: 100 });
    out.push(...found.items.map(({ id, name }) => ({ id, name })));
    if (out.length >= found.total || found.items.length === 0) break;
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export async function filterChoices(ctx: WebContext, accountId: number): Promise<FilterChoices> {
  const [spaces, domains, pixels] = await Promise.all([
    every((page) => ctx.spaces.list(accountId, { sort: 'asc' }, page)),
    every((page) => ctx.domains.list(accountId, { sort: 'asc' }, page)),
    every((page) => ctx.pixels.list(accountId, { sort: 'asc' }, page)),
  ]);
  return { spaces, domains, pixels };
}
