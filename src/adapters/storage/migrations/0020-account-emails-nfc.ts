import { sql, type Kysely } from 'kysely';
import { normaliseEmail } from '../../../core/accounts/email.ts';

/**
 * Emails were stored trimmed and lower-cased but not in Unicode NFC: one typed with a decomposed
 * accent (`e` + U+0301) was stored so, and lookups now normalise to NFC, so its owner could no
 * longer sign in. Each such email is rewritten in NFC unless another account holds that form
 * already (left as it is for an operator to settle: rewriting would break the unique index).
 * Emails with characters now refused (NUL, zero-width, bidi) are kept: dropping the characters
 * could merge two accounts; the operators' account list flags them. Accounts are people, not
 * links: read in one pass.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = (await sql<{ id: number; email: string }>`select id, email from accounts order by id`.execute(db)).rows;
  const held = new Set(rows.map((r) => r.email));
  for (const { id, email } of rows) {
    const normal = normaliseEmail(email);
    if (normal === email || held.has(normal)) continue;
    await sql`update accounts set email = ${normal} where id = ${id}`.execute(db);
    held.delete(email);
    held.add(normal);
  }
}

/** Nothing to undo: the normal form is the same address. */
export async function down(): Promise<void> {}
