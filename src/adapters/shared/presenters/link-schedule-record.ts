import type { Schedule } from '../../../core/links/link-schedules.ts';

/** A scheduled change as the API and the web app show it (docs/api.md §3, schedules). */
export function linkScheduleRecord(s: Schedule) {
  return {
    id: s.id,
    at: new Date(s.at).toISOString(),
    changes: s.changes as Record<string, unknown>,
    status: s.status,
    reason: s.reason,
  };
}
