import type { Kysely } from 'kysely';
import type { HealthReason } from '../../../core/health/health.ts';
import type {
  BrokenLinkLine,
  DigestPreferences,
  DigestRecipient,
  DigestWorkspace,
  HealthDigestStore,
} from '../../../core/health/digest-ports.ts';
import type { Database } from '../schema.ts';

/** Claims older than this are gone at a person's next claim: only the last one is ever read. */
const KEPT_DAYS = 8;

const DIGEST_ROLES = ['admin', 'owner'];

/**
 * The broken-links digest's reads and claims (migration 0047, docs/design/health.md). A link is
 * broken for a digest while its health row is broken for its current destination (a row of an
 * older url reads unknown, as everywhere) and the link is enabled. A claim is an insert that
 * the key (workspace, person, day) lets through once, on either engine.
 */
export class SqlHealthDigestStore implements HealthDigestStore, DigestPreferences {
  constructor(private readonly db: Kysely<Database>) {}

  private broken() {
    return this.db
      .selectFrom('link_health as h')
      .innerJoin('links as l', 'l.id', 'h.link_id')
      .where('h.status', '=', 'broken')
      .whereRef('h.url', '=', 'l.url')
      .where('l.disabled', '=', 0);
  }

  async workspacesWithBroken(since: number): Promise<DigestWorkspace[]> {
    const rows = await this.broken()
      .innerJoin('accounts as w', 'w.id', 'l.account_id')
      .where('w.suspended_at', 'is', null)
      .where('h.broken_since', '>', since)
      .select(['w.id', 'w.name'])
      .distinct()
      .orderBy('w.id')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name }));
  }

  async recipients(workspaceId: number): Promise<DigestRecipient[]> {
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .innerJoin('accounts as p', 'p.id', 'u.id')
      .where('m.workspace_id', '=', workspaceId)
      .where('m.role', 'in', DIGEST_ROLES)
      .where('u.health_digest', '=', 1)
      .where('p.suspended_at', 'is', null)
      .select(['u.id', 'p.name', 'p.email'])
      .orderBy('u.id')
      .execute();
    return rows.map((r) => ({ userId: r.id, name: r.name, email: r.email }));
  }

  async claim(
    workspaceId: number,
    userId: number,
    day: string,
    until: number,
  ): Promise<{ previousUntil: number | null } | null> {
    const inserted = await this.db
      .insertInto('health_digests')
      .values({ workspace_id: workspaceId, user_id: userId, day, until })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id', 'day']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
    const mine = this.db
      .selectFrom('health_digests')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId);
    const last = await mine
      .where('day', '<', day)
      .select((eb) => eb.fn.max('until').as('last'))
      .executeTakeFirst();
    const oldest = new Date(Date.parse(`${day}T00:00:00Z`) - KEPT_DAYS * 86_400_000).toISOString().slice(0, 10);
    await this.db
      .deleteFrom('health_digests')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('day', '<', oldest)
      .execute();
    return { previousUntil: last?.last == null ? null : Number(last.last) };
  }

  async release(workspaceId: number, userId: number, day: string): Promise<void> {
    await this.db
      .deleteFrom('health_digests')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .execute();
  }

  async newlyBroken(workspaceId: number, since: number, until: number, limit: number): Promise<BrokenLinkLine[]> {
    const rows = await this.broken()
      .leftJoin('domains as d', 'd.id', 'l.domain_id')
      .where('l.account_id', '=', workspaceId)
      .where('h.broken_since', '>', since)
      .where('h.broken_since', '<=', until)
      .select(['l.id', 'l.alias', 'l.url', 'd.name as domain', 'h.code', 'h.reason', 'h.broken_since'])
      .orderBy('h.broken_since')
      .orderBy('l.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      linkId: r.id,
      alias: r.alias,
      domain: r.domain ?? null,
      url: r.url,
      code: r.code === null ? null : Number(r.code),
      reason: r.reason as HealthReason | null,
      brokenSince: Number(r.broken_since),
    }));
  }

  async wantsDigest(userId: number): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('health_digest').where('id', '=', userId).executeTakeFirst();
    return (row?.health_digest ?? 1) === 1;
  }

  async setDigest(userId: number, on: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ health_digest: on ? 1 : 0 })
      .where('id', '=', userId)
      .execute();
  }
}
