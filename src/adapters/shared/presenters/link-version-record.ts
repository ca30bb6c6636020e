import type { LinkVersion } from '../../../core/links/link-history.ts';

/** A version of a link as the API and the web app show it (docs/api.md §3, history): never its state. */
export function linkVersionRecord(v: LinkVersion) {
  return {
    version: v.version,
    at: new Date(v.at).toISOString(),
    actor: { user_id: v.actor.userId, name: v.actorName },
    via: v.actor.via,
    restored_from: v.restoredFrom,
    changes: v.changes,
  };
}
