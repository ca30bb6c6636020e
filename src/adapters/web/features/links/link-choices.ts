import type { Page, PageRequest } from '../../../../core/shared/page.ts';
import type { Domain } from '../../../../core/domains/domain.ts';
import type { Pixel } from '../../../../core/pixels/pixel.ts';
import type { Space } from '../../../../core/spaces/space.ts';
import type { WebContext } from '../../app/web-context.ts';

/** What the link form offers to choose from: the account's own spaces, pixels and domains. */
export interface LinkChoices {
  spaces: Space[];
  pixels: Pixel[];
  domains: Domain[];
  /** The app's own host, the default domain. */
  ownHost: string;
}

/** Far more than anyone picks from in a form; a bound keeps the page's cost bounded too. */
const PAGES_MAX = 10;
const PER_PAGE = 100;

async function all<T>(list: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= PAGES_MAX; page++) {
    const got = await list({ page, perPage: PER_PAGE });
    out.push(...got.items);
    if (page * PER_PAGE >= got.total) break;
  }
  return out;
}

export async function linkChoices(ctx: WebContext, accountId: number): Promise<LinkChoices> {
  const [spaces, pixels, domains] = await Promise.all([
    all((p) => ctx.spaces.list(accountId, { sort: 'asc' }, p)),
    all((p) => ctx.pixels.list(accountId, { sort: 'asc' }, p)),
    all((p) => ctx.domains.list(accountId, { sort: 'asc' }, p)),
  ]);
  return { spaces, pixels, domains, ownHost: new URL(ctx.urls.appUrl).host };
}
