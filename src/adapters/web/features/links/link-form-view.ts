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
import { targetingFields } from './link-targeting-view.ts';
import { TARGET_LISTS } from '../../../../core/targeting/target.ts';
import { UTM_PARAMS } from '../../../../core/utm/utm-params.ts';
import { PREVIEW_CARD_ID, previewAside, type PreviewCard } from './link-preview-view.ts';
import { tagsField } from './link-tags-field.ts';
import { socialCardSection } from './link-social-card-field.ts';
import { destinationPanel } from './link-health-view.ts';
import { utmBuilder } from '../utm/utm-builder-view.ts';
import type { UtmBuilderState } from '../utm/utm-builder-state.ts';
import { readUtm } from '../../../../core/utm/utm-url.ts';
import { formSection, type FormSection } from './link-form-sections.ts';
import {
  appLinksSummary,
  expirySummary,
  protectionSummary,
  tagsSummary,
  targetingSummary,
  trackingSummary,
  type SummaryContext,
} from './link-form-summaries.ts';

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
  /** What a post that saved only a part of the link did (a card image uploaded): said above the form. */
  notice?: string | undefined;
  /** The UTM builder's fields and templates; absent: read from the destination, no templates. */
  utm?: UtmBuilderState | undefined;
  /** Folded sections to show open (`targeting` after a row button, `tags` after a template). */
  open?: readonly string[] | undefined;
}

/** The fields in the order the form shows them, so the summary reads top to bottom. */
const FORM_ORDER = [
  'url',
  'title',
  'domain',
  'alias',
  'space',
  'tags',
  'utm_template',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'target_type',
  'country',
  'platform',
  'language',
  'rotation',
  'password',
  'disabled',
  'privacy',
  'privacy_password',
  'expiration_date',
  'expiration_time',
  'expiration_clicks',
  'expiration_url',
  'pixels',
  'track_conversions',
  'ios_url',
  'android_url',
  'social_card',
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

function tagsBody(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.organise;
  const { values, errors, choices } = p;
  const spaces = [
    { value: '', label: t.noSpace },
    ...choices.spaces.map((s) => ({ value: String(s.id), label: s.name })),
  ];
  return html`${selectField({ name: 'space', label: t.space, options: spaces, value: values.space, errors })}
${tagsField(view, values.tags, errors)}
${utmBuilder(view, p)}`;
}

function trackingBody(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.organise;
  const { values, errors, choices } = p;
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
  const p2 = view.t.linkForm.protection;
  return html`<fieldset${pixelErrors.length > 0 ? html` aria-describedby="f-pixels-error"` : ''}>
<legend>${t.pixels}</legend>
${errorText('f-pixels', pixelErrors)}
${boxes.length > 0 ? boxes : html`<p class="hint">${t.noPixels} <a href="/pixels/new">${t.addPixel}</a></p>`}
</fieldset>
${checkbox({ name: 'track_conversions', label: p2.trackConversions, hint: p2.trackConversionsHint, checked: values.track_conversions, errors })}`;
}

function protectionBody(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.protection;
  const { values, errors } = p;
  const link = p.existing?.view.link;
  const privacyErrors = errorsFor(errors, 'privacy');
  const radios = Object.entries(t.privacyOptions).map(
    ([value, label], i) =>
      html`<label class="check" for="${i === 0 ? 'f-privacy' : `f-privacy-${value}`}"><input type="radio" id="${i === 0 ? 'f-privacy' : `f-privacy-${value}`}" name="privacy" value="${value}"${values.privacy === value ? html` checked` : ''}> ${label}</label>`,
  );
  return html`${textField({ name: 'password', label: t.password, hint: link?.passwordHash ? t.passwordSetHint : t.passwordHint, type: 'password', typedPassword: p.secrets?.password, errors, autocomplete: 'new-password', maxlength: 128 })}
${link?.passwordHash ? checkbox({ name: 'remove_password', label: t.removePassword, hint: t.removePasswordHint, checked: values.remove_password }) : ''}
${checkbox({ name: 'disabled', label: t.disabled, checked: values.disabled, errors })}
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
})}`;
}

function expiryBody(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.expiration;
  const { values, errors } = p;
  return html`<p class="hint">${t.hint} (${view.fmt.timeZone}).</p>
<div class="field-pair">
${textField({ name: 'expiration_date', label: t.date, type: 'date', value: values.expiration_date, errors })}
${textField({ name: 'expiration_time', label: t.time, type: 'time', value: values.expiration_time, errors })}
</div>
${textField({ name: 'expiration_clicks', label: t.clicks, hint: t.clicksHint, type: 'number', min: 0, value: values.expiration_clicks, errors, inputmode: 'numeric' })}
${textField({ name: 'expiration_url', label: t.url, hint: t.urlHint, type: 'url', value: values.expiration_url, errors, inputmode: 'url' })}`;
}

function appLinksBody(view: View, p: LinkFormPage): RawHtml {
  const t = view.t.linkForm.appLinks;
  const { values, errors } = p;
  return html`<p class="hint">${t.hint}</p>
${textField({ name: 'ios_url', label: t.ios, hint: t.urlHint, type: 'url', value: values.ios_url, errors, inputmode: 'url', maxlength: 2048, autocomplete: 'off' })}
${textField({ name: 'android_url', label: t.android, hint: t.urlHint, type: 'url', value: values.android_url, errors, inputmode: 'url', maxlength: 2048, autocomplete: 'off' })}`;
}

function targetingBody(view: View, p: LinkFormPage, action: string): RawHtml {
  const link = p.existing?.view.link;
  const rules = link
    ? html`<p class="hint">${view.t.linkForm.sections.rulesHint} <a href="/links/${link.id}/rules">${view.t.rules.title}</a></p>`
    : '';
  return html`${rules}
${targetingFields(view, action, p.values, p.errors)}`;
}

function summaryContext(view: View, p: LinkFormPage): SummaryContext {
  const types = view.t.linkForm.targeting.types;
  return {
    values: p.values,
    words: view.t.linkForm.sections.says,
    link: p.existing?.view.link,
    secrets: p.secrets,
    utm: p.utm?.params ?? readUtm(p.values.url),
    spaceName: (id) => p.choices.spaces.find((s) => String(s.id) === id)?.name,
    targetTypeName: (type) => types[type],
  };
}

/**
 * The folded sections, in the order the form shows them. A new section is one more entry here
 * (its fields, for FORM_ORDER too, so the error summary reads top to bottom).
 */
function foldedSections(view: View, p: LinkFormPage, action: string): FormSection[] {
  const t = view.t.linkForm.sections;
  const c = summaryContext(view, p);
  return [
    {
      id: 'tags',
      title: t.tags,
      summary: tagsSummary(c),
      fields: ['space', 'tags', 'utm_template', ...UTM_PARAMS],
      body: tagsBody(view, p),
    },
    {
      id: 'targeting',
      title: t.targeting,
      summary: targetingSummary(c),
      fields: ['target_type', ...TARGET_LISTS],
      body: targetingBody(view, p, action),
    },
    {
      id: 'protection',
      title: t.protection,
      summary: protectionSummary(c),
      fields: ['password', 'remove_password', 'disabled', 'privacy', 'privacy_password'],
      body: protectionBody(view, p),
    },
    {
      id: 'expiry',
      title: t.expiry,
      summary: expirySummary(c),
      fields: ['expiration_date', 'expiration_time', 'expiration_clicks', 'expiration_url'],
      body: expiryBody(view, p),
    },
    {
      id: 'tracking',
      title: t.tracking,
      summary: trackingSummary(c),
      fields: ['pixels', 'track_conversions'],
      body: trackingBody(view, p),
    },
    {
      id: 'app-links',
      title: t.appLinks,
      summary: appLinksSummary(c),
      fields: ['ios_url', 'android_url'],
      body: appLinksBody(view, p),
    },
    {
      id: 'social-card',
      title: t.socialCard,
      summary: socialCardSummary(view, p),
      fields: ['social_card'],
      body: socialCardSection(view, {
        values: p.values.social_card,
        errors: p.errors,
        existing: p.existing?.view,
        title: p.values.title,
      }),
    },
  ];
}

/** What the folded social card says: the person's own card, or that the defaults apply. */
function socialCardSummary(view: View, p: LinkFormPage): string {
  const says = view.t.linkForm.sections.says;
  const card = p.values.social_card;
  const own = [card.title, card.description, card.image].some((v) => v.trim() !== '');
  return own ? says.ownCard : says.defaultCard;
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
${p.notice ? html`<p class="flash" role="status">${p.notice}</p>` : ''}
${errorSummary(view, errors, summaryTargets)}
<div class="link-form-layout">
<form method="post" action="${action}" class="stack link-form" novalidate data-preview="${PREVIEW_CARD_ID}" data-preview-url="${previewUrl}">
${csrfField(view)}
<button type="submit" class="visually-hidden" tabindex="-1" aria-hidden="true">${submit}</button>
${destination(view, p)}
${shortUrl(view, p)}
${foldedSections(view, p, action).map((section) => formSection(section, errors, p.open?.includes(section.id)))}
<div class="actions"><button type="submit">${submit}</button> <a href="/links">${view.t.common.cancel}</a></div>
</form>
${p.preview ? previewAside(view, p.preview) : ''}
</div>`;
}
