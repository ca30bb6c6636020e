import type { SelectOption } from './components.ts';
import type { WebContext } from '../app/web-context.ts';

/** The account's domains, spaces and pixels as a form's choices (values are ids, as the API's). */
export interface OwnedChoices {
  domains: SelectOption[];
  spaces: SelectOption[];
  pixels: SelectOption[];
}

/** The most records offered in one list: the services page at 100. */
const MAX_CHOICES = 100;

/** The app's own host: the default domain's label. */
function appHost(ctx: Pick<WebContext, 'urls'>): string {
  try {
    return new URL(ctx.urls.appUrl).host;
  } catch {
    return ctx.urls.appUrl;
  }
}

/** The domains a link may use: the app's own first (value ''), then the account's. */
export async function domainChoices(
  ctx: WebContext,
  accountId: number,
  defaultDomain: (host: string) => string,
): Promise<SelectOption[]> {
  const domains = await ctx.domains.list(accountId, { sort: 'asc' }, { page: 1, perPage: MAX_CHOICES });
  return [
    { value: '', label: defaultDomain(appHost(ctx)) },
    ...domains.items.map((d) => ({ value: String(d.id), label: d.name })),
  ];
}

/**
 * Loads the choices in parallel. The domain list starts with the app's own domain (value ''),
 * the space list with "no space" (value ''); blank form fields mean "none", as in the API.
 */
export async function ownedChoices(
  ctx: WebContext,
  accountId: number,
  labels: { defaultDomain: (host: string) => string; noSpace: string },
): Promise<OwnedChoices> {
  const page = { page: 1, perPage: MAX_CHOICES };
  const [domains, spaces, pixels] = await Promise.all([
    domainChoices(ctx, accountId, labels.defaultDomain),
    ctx.spaces.list(accountId, { sort: 'asc' }, page),
    ctx.pixels.list(accountId, { sort: 'asc' }, page),
  ]);
  return {
    domains,
    spaces: [
      { value: '', label: labels.noSpace },
      ...spaces.items.map((s) => ({ value: String(s.id), label: s.name })),
    ],
    pixels: pixels.items.map((p) => ({ value: String(p.id), label: `${p.name} (${p.type})` })),
  };
}
