import { setImmediate as turn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Rule } from '../../../core/rules/rule.ts';
import type { StoredDestinations } from '../../../core/links/stored-schemes.ts';
import type { Database } from '../schema.ts';

/**
 * Every link's stored destinations, a page at a time in id order (one indexed range read each),
 * the event loop turning between pages: a background walk that never holds the redirect.
 */
export async function* storedDestinations(
  db: Kysely<Database>,
  options: { pageSize?: number; signal?: AbortSignal } = {},
): AsyncGenerator<StoredDestinations[]> {
  const pageSize = options.pageSize ?? 500;
  let after = 0;
  while (!options.signal?.aborted) {
    const rows = await db
      .selectFrom('links')
      .select(['id', 'url', 'ios_url', 'android_url', 'rules'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      id: r.id,
      url: r.url,
      iosUrl: r.ios_url,
      androidUrl: r.android_url,
      rules: rulesOf(r.rules),
    }));
    after = rows[rows.length - 1]!.id;
    await turn();
  }
}

/** A row's rules; a row whose JSON does not read has none to look at (the redirect says so when visited). */
function rulesOf(text: string | null): Rule[] | null {
  if (text === null) return null;
  try {
    const rules = JSON.parse(text) as unknown;
    return Array.isArray(rules) ? (rules as Rule[]) : null;
  } catch {
    return null;
  }
}
