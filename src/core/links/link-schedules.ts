import type { AuditActor } from '../audit/audit-entry.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { LinkInput } from './link-input.ts';

export const SCHEDULE_STATUSES = ['pending', 'applied', 'failed', 'cancelled'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** A change of a link asked for later (docs/design/history.md): the input of an update, as it was sent. */
export interface NewSchedule {
  linkId: number;
  accountId: number;
  at: number;
  changes: LinkInput;
  /** Who asked: the change is theirs when it is applied (`via: "schedule"`). */
  actor: AuditActor;
  /** The zone the change's dates are read in, the asker's then. */
  timeZone: string;
  createdAt: number;
}

export interface Schedule extends NewSchedule {
  id: number;
  status: ScheduleStatus;
  /** Why a failed schedule failed (a field's message: the alias taken meanwhile). */
  reason: string | null;
  doneAt: number | null;
}

/**
 * The scheduled changes. A pending schedule leaves that state once, by a conditional update
 * (`status = 'pending'`): whichever instance's claim changes the row applies it, in the claim's
 * own unit of work, so however many instances run, it is applied once or not at all.
 */
export interface LinkSchedules {
  insert(schedule: NewSchedule): Promise<Schedule>;
  /** The link's schedules, the latest `at` first. */
  list(accountId: number, linkId: number, page: PageRequest): Promise<Page<Schedule>>;
  find(accountId: number, linkId: number, id: number): Promise<Schedule | null>;
  /** Pending schedules whose `at` has come, the earliest first. */
  due(now: number, limit: number): Promise<Schedule[]>;
  /** pending → applied/failed/cancelled; false when it was no longer pending (another took it). */
  settle(id: number, status: Exclude<ScheduleStatus, 'pending'>, now: number, reason?: string): Promise<boolean>;
}
