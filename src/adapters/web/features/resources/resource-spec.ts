import type { TSchema } from '@sinclair/typebox';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { OwnedRecordService } from '../../../shared/services/owned-record-service.ts';
import type { HtmlValue, RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';

/** A form as posted or about to be shown: field name → value as typed. */
export type Form = Record<string, unknown>;

/** The value of a form field as text ('' when absent or not text). */
export const textOf = (form: Form, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
};

/** What every record of these screens has. */
export interface NamedRecord {
  id: number;
  name: string;
  createdAt: number;
}

/** The list query every one of these resources takes (the API's: search, sort, page, per_page). */
export interface ResourceListQuery {
  search?: string | undefined;
  sort: 'desc' | 'asc';
  page: number;
  per_page: number;
}

/** The sentences of one screen family (its catalogue section has these, in its own words). */
export interface ResourceText {
  title: string;
  intro: string;
  caption: string;
  add: string;
  newTitle: string;
  editTitle(name: string): string;
  deleteTitle(name: string): string;
  deleteEffect: string;
  created(name: string): string;
  updated(name: string): string;
  deleted(name: string): string;
  empty: string;
  noMatch: string;
  searchLabel: string;
}

export interface Column<T> {
  header: string;
  cell(item: T): HtmlValue;
}

/**
 * One account-owned resource's screens (pixels, spaces, domains): a list with search, a form
 * for new and edit, a delete confirmation. Validation and writes are the API's: the same body
 * schema, the same service.
 */
export interface ResourceSpec<T extends NamedRecord, F, I, Q extends ResourceListQuery> {
  /** The path segment: /pixels, /pixels/new, /pixels/{id}/edit… */
  plural: string;
  service: OwnedRecordService<T, F, I>;
  /** The API's body schema (TypeBox), validated with attachValidation as the API does. */
  body: TSchema;
  /** The API's list query schema. */
  query: TSchema;
  filterOf(query: Q): F;
  text(view: View): ResourceText;
  /** The form's controls, CSRF and buttons aside; `record` is the one edited, null on new. */
  fields(view: View, values: Form, errors: FieldErrors | undefined, record: T | null): RawHtml;
  /** What the edit form starts with. */
  valuesOf(record: T): Form;
  /** The faults of a field's parts (a JSON document's paths) shown at the field itself; absent: as named. */
  foldErrors?(errors: FieldErrors): FieldErrors;
  /** What the new form starts with. */
  defaults: Form;
  /** Select fields whose blank choice ("Choose…") means "not sent", so the rule says "required". */
  blankIsAbsent?: readonly string[];
  /** The table's columns between the name and the creation date. */
  columns(view: View): Column<T>[];
  /** Filter controls besides search, order and page size (pixels: their type). */
  filters?(view: View, query: Q): RawHtml;
  /** Query parameters of those filters, to keep across pages. */
  filterParams?(query: Q): Record<string, string | undefined>;
  /** Shown above the edit form (domains: their verification). `problems`: why a check failed. */
  aside?(view: View, record: T, problems?: readonly string[]): RawHtml;
  /** Where to go after creating: the list by default. */
  afterCreate?(record: T): string;
}
