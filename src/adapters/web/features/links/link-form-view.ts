import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import { statusOf } from '../../../../core/domains/domain.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import {
  checkbox,
  copyButton,
  csrfField,
  errorSummary,
  errorsFor,
  selectField,
  textField,
} from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import type { LinkChoices } from './link-choices.ts';
import type { LinkFormValues, TypedSecrets } from './link-form-state.ts';
import { targetingSection } from './link-targeting-view.ts';
import { PREVIEW_CARD_ID, previewAside, type PreviewCard } from './link-preview-view.ts';
import { tagsField } from './link-tags-field.ts';
import { socialCardSection } from './link-social-card-field.ts';
import { destinationPanel } from './link-health-view.ts';
import { utmBuilder } from '../utm/utm-builder-view.ts';
import type { UtmBuilderState } from '../utm/utm-builder-state.ts';

export interface LinkFormPage {
  values: LinkFormValues;
  errors?: FieldErrors | undefined;
  choices: LinkChoices;
  /** The stored link and its short URL, when editing. */
  existing?: { view: LinkView; shortUrl: string } | undefined;
  /** The passwords as typed: only on the answer to a row button's post (link-form-state.ts). */
  secrets?: TypedSecrets | undefined;
  /** The preview card beside the form, as the values stand. */
  preview?: PreviewCard | undefined;
  /** A row was added or removed: says nothing is saved yet. */
  rowsChanged?: boolean;
  /** The UTM builder's fields and templates; absent: read from the destination, no templates. */
  utm?: UtmBuilderState | undefined;
}

/** The fields in the order the form shows them, so the summary reads top to bottom. */
const FORM_ORDER = [
  'url',
  'title',
  'domain',
  'alias',
  'space',
  'pixels',
  'password',
  'disabled',
  'track_conversions',
  'privacy',
  'privacy_password',
  'expiration_date',
  'expiration_time',
  'expiration_clicks',
  'expiration_url',
  'ios_url',
  'android_url',
  'social_card',
  'target_type',
  'country',
  'platform',
  'language',
  'rotation',
];

function inFormOrder(errors: FieldErrors): FieldErrors {
  const rank = (field: string) => {
    const [name = '', index = '0'] = field.split('.');
    const at = FORM_ORDER.indexOf(name);
    return (at === -1 ? FORM_ORDER.length : at) * 1000 + (Number(index) || 0);
  };
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)));
}

function errorText(id: string, messages: string[]): RawHtml {
  return messages.length > 0 ? html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>` : html``;
}

function destination(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.destination;
  const { values, errors } = p;
  return html`<fieldset>
<legend>${t.legend}</legend>
${textField({ name: 'url', label: t.url, hint: t.urlHint, type: 'url', value: values.url, errors, required: true, inputmode: 'url', maxlength: 2048 })}
${textField({ name: 'title', label: t.title, hint: p.existing ? t.titleEditHint : t.titleHint, value: values.title, errors, maxlength: 255 })}
</fieldset>`;
}

function shortUrl(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.short;
  const { values, errors, choices } = p;
  const domainOptions = [
    { value: '', label: t.ownDomain(choices.ownHost) },
    ...choices.domains.map((d) => ({
      value: String(d.id),
      label: statusOf(d) === 'verified' ? d.name : t.pendingDomain(d.name),
    })),
  ];
  const domain = p.existing
    ? html`<div class="field"><p><strong>${t.domain}:</strong> ${p.existing.view.domain?.name ?? choices.ownHost}</p><p class="hint">${t.domainHint}</p></div>`
    : selectField({ name: 'domain', label: t.domain, options: domainOptions, value: values.domain, errors });
  return html`<fieldset>
<legend>${t.legend}</legend>
${domain}
${textField({ name: 'alias', label: t.alias, hint: p.existing ? t.aliasEditHint : t.aliasHint, value: values.alias, errors, maxlength: 255, autocomplete: 'off' })}
</fieldset>`;
}

function organise(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.organise;
  const { values, errors, choices } = p;
  const spaces = [
    { value: '', label: t.noSpace },
    ...choices.spaces.map((s) => ({ value: String(s.id), label: s.name })),
  ];
  const ticked = new Set(values.pixels);
  // An item's fault (`pixels.0`) is the list's: the boxes have no ids by position.
  const pixelErrors = Object.entries(errors ?? {}).flatMap(([field, list]) =>
    field === 'pixels' || field.startsWith('pixels.') ? list : [],
  );
  const boxes = choices.pixels.map((px, i) =>
    checkbox({
      name: 'pixels[]',
      // The first box carries the field's id, so the error summary's link lands on it.
      id: i === 0 ? 'f-pixels' : `f-pixels-${px.id}`,
      value: String(px.id),
      label: t.pixel(px.name, px.type),
      checked: ticked.has(String(px.id)),
    }),
  );
  return html`<fieldset>
<legend>${t.legend}</legend>
${selectField({ name: 'space', label: t.space, options: spaces, value: values.space, errors })}
${tagsField(view, values.tags, errors)}
<fieldset${pixelErrors.length > 0 ? html` aria-describedby="f-pixels-error"` : ''}>
<legend>${t.pixels}</legend>
${errorText('f-pixels', pixelErrors)}
${boxes.length > 0 ? boxes : html`<p class="hint">${t.noPixels}</p>`}
</fieldset>
</fieldset>`;
}

function protection(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.protection;
  const { values, errors } = p;
  const link = p.existing?.view.link;
  const privacyErrors = errorsFor(errors, 'privacy');
  const radios = Object.entries(t.privacyOptions).map(
    ([value, label], i) =>
      html`<label class="check" for="${i === 0 ? 'f-privacy' : `f-privacy-${value}`}"><input type="radio" id="${i === 0 ? 'f-privacy' : `f-privacy-${value}`}" name="privacy" value="${value}"${values.privacy === value ? html` checked` : ''}> ${label}</label>`,
  );
  return html`<fieldset>
<legend>${t.legend}</legend>
${textField({ name: 'password', label: t.password, hint: link?.passwordHash ? t.passwordSetHint : t.passwordHint, type: 'password', typedPassword: p.secrets?.password, errors, autocomplete: 'new-password', maxlength: 128 })}
${link?.passwordHash ? checkbox({ name: 'remove_password', label: t.removePassword, hint: t.removePasswordHint, checked: values.remove_password }) : ''}
${checkbox({ name: 'disabled', label: t.disabled, checked: values.disabled, errors })}
${checkbox({ name: 'track_conversions', label: t.trackConversions, hint: t.trackConversionsHint, checked: values.track_conversions, errors })}
<fieldset class="field"${privacyErrors.length > 0 ? html` aria-describedby="f-privacy-error"` : ''}>
<legend>${t.privacy}</legend>
${errorText('f-privacy', privacyErrors)}
${radios}
</fieldset>
${textField({
  name: 'privacy_password',
  label: t.privacyPassword,
  hint: link?.privacyPasswordHash ? t.privacyPasswordSetHint : t.privacyPasswordHint,
  type: 'password',
  typedPassword: p.secrets?.privacy_password,
  errors,
  autocomplete: 'new-password',
  maxlength: 128,
})}
</fieldset>`;
}

function expiration(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.expiration;
  const { values, errors } = p;
  return html`<fieldset>
<legend>${t.legend}</legend>
<p class="hint">${t.hint} (${view.fmt.timeZone}).</p>
<div class="field-pair">
${textField({ name: 'expiration_date', label: t.date, type: 'date', value: values.expiration_date, errors })}
${textField({ name: 'expiration_time', label: t.time, type: 'time', value: values.expiration_time, errors })}
</div>
${textField({ name: 'expiration_clicks', label: t.clicks, hint: t.clicksHint, type: 'number', min: 0, value: values.expiration_clicks, errors, inputmode: 'numeric' })}
${textField({ name: 'expiration_url', label: t.url, hint: t.urlHint, type: 'url', value: values.expiration_url, errors, inputmode: 'url' })}
</fieldset>`;
}

function appLinks(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.appLinks;
  const { values, errors } = p;
  return html`<fieldset>
<legend>${t.legend}</legend>
<p class="hint">${t.hint}</p>
${textField({ name: 'ios_url', label: t.ios, hint: t.urlHint, type: 'url', value: values.ios_url, errors, inputmode: 'url', maxlength: 2048, autocomplete: 'off' })}
${textField({ name: 'android_url', label: t.android, hint: t.urlHint, type: 'url', value: values.android_url, errors, inputmode: 'url', maxlength: 2048, autocomplete: 'off' })}
</fieldset>`;
}

function existingHeader(view: View, existing: NonNullable<LinkFormPage['existing']>): RawHtml {
  const t = view.t.linkForm;
  const id = existing.view.link.id;
  return html`<div class="link-summary">
<p><strong>${t.shortUrl}:</strong> <a class="url" href="${existing.shortUrl}">${existing.shortUrl}</a> ${copyButton(view, existing.shortUrl)}</p>
<nav aria-label="${t.actionsLabel}"><ul class="link-actions">
<li><a href="/links/${id}/qr">${t.qrCode}</a></li>
<li><a href="/links/${id}/rules">${view.t.rules.title}</a></li>
<li><a href="/links/${id}/conversions">${view.t.conversions.title}</a></li>
<li><a href="/links/${id}/history">${view.t.history.title}</a></li>
<li><a href="/links/${id}/schedule">${view.t.history.schedule.title}</a></li>
<li><a href="/links/${id}/delete">${t.deleteLink}</a></li>
<li><a href="/links">${t.backToLinks}</a></li>
</ul></nav>
</div>
${destinationPanel(view, existing.view)}`;
}

/**
 * The whole form, for a new link or an existing one. Pressing Enter in a field submits with the
 * form's first submit button: a visually hidden copy of the main one comes first, so that is
 * never a targeting row's "Remove".
 */
export function linkForm(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm;
  const errors = p.errors ? inFormOrder(p.errors) : undefined;
  const summaryTargets = Object.fromEntries(
    Object.keys(errors ?? {}).flatMap((field) => (field.startsWith('pixels.') ? [[field, 'pixels']] : [])),
  );
  const action = p.existing ? `/links/${p.existing.view.link.id}/edit` : '/links/new';
  const previewUrl = p.existing ? `/links/${p.existing.view.link.id}/preview` : '/links/new/preview';
  const submit = p.existing ? t.save : t.create;
  return html`<h1>${p.existing ? t.editTitle : t.newTitle}</h1>
${p.existing ? existingHeader(view, p.existing) : ''}
${p.rowsChanged ? html`<p class="flash" role="status">${t.rowsChanged(submit)}</p>` : ''}
${errorSummary(view, errors, summaryTargets)}
<div class="link-form-layout">
<form method="post" action="${action}" class="stack link-form" novalidate data-preview="${PREVIEW_CARD_ID}" data-preview-url="${previewUrl}">
${csrfField(view)}
<button type="submit" class="visually-hidden" tabindex="-1" aria-hidden="true">${submit}</button>
${destination(view, p)}
${utmBuilder(view, p)}
${shortUrl(view, p)}
${organise(view, p)}
${protection(view, p)}
${expiration(view, p)}
${appLinks(view, p)}
${socialCardSection(view, { values: p.values.social_card, errors: p.errors, existing: p.existing?.view, title: p.values.title })}
${targetingSection(view, action, p.values, p.errors)}
<div class="actions"><button type="submit">${submit}</button> <a href="/links">${view.t.common.cancel}</a></div>
</form>
${p.preview ? previewAside(view, p.preview) : ''}
</div>`;
}
