import type { Kysely } from 'kysely';
import type { Database } from '../adapters/storage/schema.ts';
import { storedDestinations } from '../adapters/storage/stores/stored-destinations.ts';
import { refusedSchemesOf } from '../core/links/stored-schemes.ts';
import { UrlPolicy } from '../core/links/url-policy.ts';
import type { Config } from './config.ts';

/** Ids a warning names at most: enough to find the links, few enough to read. */
const SAMPLE = 10;

interface RefusedSchemeLinks {
  count: number;
  /** The first few links' ids. */
  ids: number[];
  schemes: string[];
}

/** The links stored with a destination or app link of a scheme the settings refuse now (docs/design/app-schemes.md). */
async function linksWithRefusedSchemes(
  db: Kysely<Database>,
  allowed: UrlPolicy,
  signal?: AbortSignal,
): Promise<RefusedSchemeLinks> {
  const found: RefusedSchemeLinks = { count: 0, ids: [], schemes: [] };
  const schemes = new Set<string>();
  for await (const page of storedDestinations(db, signal ? { signal } : {})) {
    for (const link of page) {
      const refused = refusedSchemesOf(link, allowed);
      if (refused.length === 0) continue;
      found.count++;
      if (found.ids.length < SAMPLE) found.ids.push(link.id);
      for (const s of refused) schemes.add(s);
    }
  }
  found.schemes = [...schemes].sort();
  return found;
}

/**
 * The start's warning: links saved under settings that allowed a scheme refused now (an
 * `intent:` app link saved before intent left APP_SCHEMES) keep working as saved; the operator
 * is told how many there are and which, to edit them. Walks the links in the background.
 */
export async function warnOfRefusedSchemes(
  db: Kysely<Database>,
  config: Pick<Config, 'URL_SCHEMES' | 'APP_SCHEMES'>,
  log: { warn(fields: object, message: string): void },
  signal?: AbortSignal,
): Promise<void> {
  const found = await linksWithRefusedSchemes(db, new UrlPolicy(config.URL_SCHEMES, config.APP_SCHEMES), signal);
  if (found.count === 0 || signal?.aborted) return;
  log.warn(
    { links: found.count, ids: found.ids, schemes: found.schemes },
    `${found.count} link(s) keep a destination or app link whose scheme (${found.schemes.join(', ')}) URL_SCHEMES / APP_SCHEMES no longer allow; they are served as saved until edited`,
  );
}
