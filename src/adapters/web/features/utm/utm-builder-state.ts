import { FieldErrorBag, ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { messages } from '../../../../core/shared/messages.ts';
import { PER_PAGE } from '../../../../core/shared/page.ts';
import { UTM_PARAMS, emptyUtm, type UtmParams } from '../../../../core/utm/utm-params.ts';
import { checkUtmValue } from '../../../../core/utm/utm-rules.ts';
import { composeUtm, readUtm } from '../../../../core/utm/utm-url.ts';
import type { UtmTemplatesService } from '../../../../core/utm/utm-templates-service.ts';
import { parseDecimal } from '../../../shared/input/strict-input.ts';
import { ID_MAX } from '../../../shared/schemas/common.ts';

/** What the link form's UTM builder shows. */
export interface UtmBuilderState {
  params: UtmParams;
  /** The template chosen in the picker (its id as text, '' for none). */
  template: string;
  /** The templates to pick from, with their parameters (the page's script applies them in place). */
  templates: readonly { id: number; name: string; params: UtmParams }[];
  /** The builder's own refused fields (utm_source…, utm_template). */
  errors: FieldErrors;
}

/** The builder as posted (link-form-pages.ts keeps it with the rest of the form). */
export interface PostedUtm {
  params: UtmParams;
  template: string;
  /** Sent by the "Apply template" button. */
  apply: boolean;
  errors: FieldErrors;
}

type Form = Record<string, unknown>;
const formOf = (raw: unknown): Form => (raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Form) : {});
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function faultsIn(bag: FieldErrorBag): FieldErrors {
  try {
    bag.throwIfAny();
    return {};
  } catch (error) {
    if (error instanceof ValidationError) return error.fields;
    throw error;
  }
}

/**
 * The destination with the builder's fields composed in, as the form's submit means it. Without
 * a script the two can disagree: the builder wins for a field changed since the page was shown
 * (`utm_base`: the destination it was read from), the destination for the others, so an edit to
 * either is kept. A form without the builder sends the destination as it is; a builder field
 * that breaks a rule leaves it as typed (and refuseUtmFaults refuses the save).
 */
export function composePostedUtm(raw: unknown, url: string): { url: string; utm: PostedUtm | null } {
  const form = formOf(raw);
  if (!Object.hasOwn(form, 'utm_base')) return { url, utm: null };
  const shown = readUtm(text(form.utm_base));
  const inUrl = readUtm(url);
  const bag = new FieldErrorBag();
  const params = emptyUtm();
  for (const name of UTM_PARAMS) {
    const value = form[name];
    if (value !== undefined && typeof value !== 'string') bag.add(name, messages.string(name));
    const posted = checkUtmValue(bag, name, text(value)) ?? text(value);
    params[name] = posted !== shown[name] ? posted : inUrl[name];
  }
  const errors = faultsIn(bag);
  const utm = { params, template: text(form.utm_template), apply: text(form.utm_apply) !== '', errors };
  return { url: Object.keys(errors).length > 0 ? url : composeUtm(url, params), utm };
}

/** Refuses the save when a builder field broke a rule, with the link's own faults (`linkFaults`) so all are named at once. */
export async function refuseUtmFaults(posted: PostedUtm | null, linkFaults: () => Promise<FieldErrors>): Promise<void> {
  const errors = posted?.errors ?? {};
  if (Object.keys(errors).length > 0) throw new ValidationError({ ...(await linkFaults()), ...errors });
}

/**
 * When the form was sent by "Apply template": the destination with the chosen template's five
 * parameters in place of the builder's (they fill the builder too), nothing saved; or the
 * picker's fault. `utm`: the builder as the page shows it next. Null when the form was sent otherwise.
 */
export async function applyUtmTemplate(
  posted: PostedUtm | null,
  templates: UtmTemplatesService,
  accountId: number,
  url: string,
): Promise<{ url: string; errors?: FieldErrors; utm: PostedUtm } | null> {
  if (!posted?.apply) return null;
  const id = parseDecimal(posted.template);
  // Another account's template is one this account cannot choose: the same answer as none.
  const template = id === null || id === 0 || id > ID_MAX ? null : await templates.find(accountId, id);
  if (!template) {
    const errors = {
      utm_template: [posted.template === '' ? messages.required('utm_template') : messages.selected('utm_template')],
    };
    return { url, errors, utm: { ...posted, errors: { ...posted.errors, ...errors } } };
  }
  return { url: composeUtm(url, template.params), utm: { ...posted, params: { ...template.params }, errors: {} } };
}

/** The builder for a page: as posted, or read from the destination; with the account's templates to pick from. */
export async function utmBuilderState(
  posted: PostedUtm | null,
  templates: UtmTemplatesService,
  accountId: number,
  url: string,
): Promise<UtmBuilderState> {
  const page = await templates.list(accountId, { sort: 'asc' }, { page: 1, perPage: PER_PAGE.max });
  return {
    params: posted?.params ?? readUtm(url),
    template: posted?.template ?? '',
    templates: page.items.map((t) => ({ id: t.id, name: t.name, params: t.params })),
    errors: posted?.errors ?? {},
  };
}
