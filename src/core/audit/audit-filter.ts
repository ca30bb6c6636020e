import { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { AuditFilter } from './audit-entry.ts';

/** The filters as a client sends them (query strings; the API's names). */
export interface AuditFilterInput {
  actor?: number | string | undefined;
  action?: string | undefined;
  target_type?: string | undefined;
  target_id?: number | string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const NAME = /^[a-z_]{1,32}(\.[a-z_]{1,32})?$/;

function id(raw: number | string | undefined, field: string, bag: FieldErrorBag): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = typeof raw === 'number' ? raw : /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (Number.isSafeInteger(n) && n > 0) return n;
  bag.add(field, messages.invalid(field));
  return undefined;
}

function instant(raw: string | undefined, field: string, bag: FieldErrorBag): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  // A date alone is that day from midnight UTC; `to` of a date alone takes the whole day.
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const at = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(raw)
    ? Date.parse(dateOnly ? `${raw}T00:00:00Z` : raw)
    : NaN;
  if (Number.isNaN(at)) {
    bag.add(field, messages.invalid(field));
    return undefined;
  }
  return dateOnly && field === 'to' ? at + 24 * 60 * 60 * 1000 : at;
}

function name(raw: string | undefined, field: string, bag: FieldErrorBag): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (NAME.test(raw)) return raw;
  bag.add(field, messages.invalid(field));
  return undefined;
}

/** Reads every filter, naming each bad one together. */
export function checkAuditFilter(input: AuditFilterInput): AuditFilter {
  const bag = new FieldErrorBag();
  const filter: AuditFilter = {
    actor: id(input.actor, 'actor', bag),
    action: name(input.action, 'action', bag),
    targetType: name(input.target_type, 'target_type', bag),
    targetId: id(input.target_id, 'target_id', bag),
    from: instant(input.from, 'from', bag),
    to: instant(input.to, 'to', bag),
  };
  if (filter.from !== undefined && filter.to !== undefined && filter.to <= filter.from)
    bag.add('to', 'The to date must be after the from date.');
  bag.throwIfAny();
  return filter;
}
