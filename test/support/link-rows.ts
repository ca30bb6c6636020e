import type { Insertable } from 'kysely';
import type { LinksTable } from '../../src/adapters/storage/schema.ts';

/**
 * A link's row as a test writes it straight in SQL, past the service (to load thousands at once,
 * or a schema of an earlier migration): the columns every link needs, the alias's key lowered as
 * the service stores it, then `more`.
 */
export function linkRow(accountId: number, alias: string, more: Partial<Insertable<LinksTable>> = {}): Insertable<LinksTable> {
  return {
    account_id: accountId,
    alias,
    alias_key: alias.toLowerCase(),
    url: 'https://example.com/',
    target_type: 0,
    disabled: 0,
    privacy: 0,
    created_at: 0,
    updated_at: 0,
    ...more,
  };
}
