import type { Kysely } from 'kysely';
import type { FirstStepsStore, WorkspaceFacts } from '../../../core/onboarding/first-steps.ts';
import type { Database } from '../schema.ts';

/**
 * The first-run checklist's facts (each one row at most, so a big workspace costs what a new one
 * does) and its dismissals (migration 0052).
 */
export class SqlFirstStepsStore implements FirstStepsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async facts(workspaceId: number, userId: number, now: number): Promise<WorkspaceFacts> {
    const any = async (query: { executeTakeFirst(): Promise<unknown> }) =>
      (await query.executeTakeFirst()) !== undefined;
    const [hasLinks, counted, clicked, hasDomains, hasKeys, member, invited] = await Promise.all([
      any(this.db.selectFrom('links').select('id').where('account_id', '=', workspaceId).limit(1)),
      // The day counts follow the clicks written; a link's own count also holds clicks whose days
      // retention has dropped.
      any(
        this.db
          .selectFrom('account_click_days')
          .select('day')
          .where('account_id', '=', workspaceId)
          .where('count', '>', 0)
          .limit(1),
      ),
      any(
        this.db.selectFrom('links').select('id').where('account_id', '=', workspaceId).where('clicks', '>', 0).limit(1),
      ),
      any(this.db.selectFrom('domains').select('id').where('account_id', '=', workspaceId).limit(1)),
      any(
        this.db
          .selectFrom('api_keys')
          .select('id')
          .where('account_id', '=', workspaceId)
          .where('revoked_at', 'is', null)
          .limit(1),
      ),
      any(
        this.db
          .selectFrom('memberships')
          .select('user_id')
          .where('workspace_id', '=', workspaceId)
          .where('user_id', '!=', userId)
          .limit(1),
      ),
      any(
        this.db
          .selectFrom('invitations')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', now)
          .limit(1),
      ),
    ]);
    return { hasLinks, hasClicks: counted || clicked, hasDomains, hasKeys, hasOthers: member || invited };
  }

  async dismissed(workspaceId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('first_steps_dismissals')
      .select('user_id')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async dismiss(workspaceId: number, userId: number, at: number): Promise<void> {
    await this.db
      .insertInto('first_steps_dismissals')
      .values({ workspace_id: workspaceId, user_id: userId, dismissed_at: at })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
      .execute();
  }
}
