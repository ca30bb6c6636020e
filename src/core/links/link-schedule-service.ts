import { FieldErrorBag, NotFoundError, ValidationError, type FieldErrors } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { AuditActor } from '../audit/audit-entry.ts';
import type { LinkInput } from './link-input.ts';
import type { LinksService } from './links-service.ts';
import type { LinkSchedules, Schedule } from './link-schedules.ts';

/** Secrets are set now, never kept in a schedule's row until it is applied. */
const UNSCHEDULABLE = ['password', 'privacy_password'] as const;
const SECRET_MESSAGE = 'A password cannot be scheduled; set it with an update.';

/** Thrown in a schedule's unit when another instance applied or cancelled it first: the unit rolls back. */
class AlreadySettled extends Error {}

export interface LinkScheduleDeps {
  schedules: LinkSchedules;
  links: LinksService;
  clock: Clock;
}

/** Changes of a link asked for later, and the round that applies those due (docs/design/history.md). */
export class LinkScheduleService {
  constructor(private readonly deps: LinkScheduleDeps) {}

  /** Checked as an update now (a 422 names `changes.<field>`), applied when `at` comes. */
  async create(
    accountId: number,
    timeZone: string,
    linkId: number,
    request: { at: number | null; changes: LinkInput },
    actor: AuditActor,
    schemaFaults: FieldErrors = {},
  ): Promise<Schedule> {
    const now = this.deps.clock.now();
    const bag = new FieldErrorBag();
    for (const [field, list] of Object.entries(schemaFaults)) for (const m of list) bag.add(field, m);
    if (request.at === null) bag.add('at', messages.invalid('at'));
    else if (request.at <= now) bag.add('at', 'The at field must be a time in the future.');
    const changes = request.changes as Record<string, unknown>;
    for (const field of UNSCHEDULABLE) if (changes[field] !== undefined) bag.add(`changes.${field}`, SECRET_MESSAGE);
    if (Object.keys(changes).length === 0) bag.add('changes', messages.required('changes'));
    const rest = Object.fromEntries(
      Object.entries(changes).filter(([f]) => !schemaFaults[`changes.${f}`] && !UNSCHEDULABLE.includes(f as never)),
    ) as LinkInput;
    const faults = await this.deps.links.faultsOf(accountId, timeZone, rest, linkId);
    for (const [field, list] of Object.entries(faults)) for (const m of list) bag.add(`changes.${field}`, m);
    bag.throwIfAny();
    return this.deps.schedules.insert({
      linkId,
      accountId,
      at: request.at!,
      changes: request.changes,
      actor,
      timeZone,
      createdAt: now,
    });
  }

  async list(accountId: number, linkId: number, page: PageRequest): Promise<Page<Schedule>> {
    await this.deps.links.get(accountId, linkId);
    return this.deps.schedules.list(accountId, linkId, page);
  }

  /** A pending schedule is cancelled; one already applied, failed or cancelled is a 422 naming its status. */
  async cancel(accountId: number, linkId: number, id: number): Promise<Schedule> {
    const found = await this.deps.schedules.find(accountId, linkId, id);
    if (!found) throw new NotFoundError('schedule');
    if (!(await this.deps.schedules.settle(id, 'cancelled', this.deps.clock.now())))
      throw ValidationError.of('status', 'Only a pending schedule can be cancelled.');
    return (await this.deps.schedules.find(accountId, linkId, id))!;
  }

  /**
   * Applies the schedules due, up to `limit`, each as an update `via: "schedule"` that claims it
   * in its own unit; one the rules now refuse (the alias taken meanwhile) fails with the reason.
   * Answers how many it settled.
   */
  async applyDue(limit: number): Promise<number> {
    let settled = 0;
    for (const schedule of await this.deps.schedules.due(this.deps.clock.now(), limit))
      if (await this.apply(schedule)) settled++;
    return settled;
  }

  private async apply(s: Schedule): Promise<boolean> {
    const actor: AuditActor = { ...s.actor, via: 'schedule' };
    const claim = async (tx: { schedules?: LinkSchedules | undefined }) => {
      if (!(await (tx.schedules ?? this.deps.schedules).settle(s.id, 'applied', this.deps.clock.now())))
        throw new AlreadySettled();
    };
    try {
      await this.deps.links.update(s.accountId, s.timeZone, s.linkId, s.changes, actor, claim);
      return true;
    } catch (error) {
      if (error instanceof AlreadySettled) return false;
      if (error instanceof ValidationError || error instanceof NotFoundError)
        return this.deps.schedules.settle(s.id, 'failed', this.deps.clock.now(), reasonOf(error));
      throw error;
    }
  }
}

function reasonOf(error: ValidationError | NotFoundError): string {
  if (error instanceof NotFoundError) return 'The link is gone.';
  return Object.entries(error.fields)
    .map(([field, list]) => `${field}: ${list.join(' ')}`)
    .join('; ');
}
