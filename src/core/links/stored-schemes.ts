import type { Rule } from '../rules/rule.ts';
import type { UrlPolicy } from './url-policy.ts';

/** What a link sends visitors to, as stored: its url, its app links and its rules' (docs/design/rules.md). */
export interface StoredDestinations {
  id: number;
  url: string;
  iosUrl: string | null;
  androidUrl: string | null;
  rules: readonly Rule[] | null;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

const schemeOf = (value: string): string => SCHEME.exec(value.trim())?.[1]?.toLowerCase() ?? '';

/** What the settings allow now, asked of the policy that checks every write: URL_SCHEMES for destinations, https and APP_SCHEMES for app links. */
type AllowedSchemes = Pick<UrlPolicy, 'allowsScheme' | 'allowsAppScheme'>;

/**
 * The schemes of a stored link that its settings would refuse today (a scheme taken off
 * APP_SCHEMES or URL_SCHEMES, or one no longer allowed at all, such as intent:). Such a link
 * keeps working: what was checked when it was saved is served as saved (docs/design/app-schemes.md).
 */
export function refusedSchemesOf(link: StoredDestinations, allowed: AllowedSchemes): string[] {
  const urls = [link.url, ...(link.rules ?? []).flatMap((r) => [r.url, ...(r.split ?? []).map((v) => v.url)])];
  const apps = [link.iosUrl, link.androidUrl, ...(link.rules ?? []).flatMap((r) => [r.ios_url, r.android_url])];
  const refused = new Set<string>();
  for (const url of urls) if (url && !allowed.allowsScheme(schemeOf(url))) refused.add(schemeOf(url));
  for (const app of apps) if (app && !allowed.allowsAppScheme(schemeOf(app))) refused.add(schemeOf(app));
  return [...refused];
}
