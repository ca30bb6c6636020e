import {
  resolveCard,
  SOCIAL_CARD_LIMITS,
  uploadedCardImage,
  type SocialCard,
} from '../../../../core/links/social-card.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { textArea, textField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';

/** The card's three fields as typed (docs/design/social-cards.md); blank: the default. */
export interface SocialCardValues {
  title: string;
  description: string;
  image: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export const emptyCardValues = (): SocialCardValues => ({ title: '', description: '', image: '' });

/** `social_card[title]` … of a posted form, read defensively. */
export function cardValuesOfForm(raw: unknown): SocialCardValues {
  const form = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  return { title: text(form.title), description: text(form.description), image: text(form.image) };
}

export function cardValuesOfLink(card: SocialCard | null): SocialCardValues {
  return { title: card?.title ?? '', description: card?.description ?? '', image: card?.image ?? '' };
}

/** The API's `social_card` for these values: blank fields are null, all blank is no card of its own. */
export function cardBodyOf(values: SocialCardValues): Record<string, string | null> {
  const orNull = (s: string) => (s.trim() === '' ? null : s);
  return { title: orNull(values.title), description: orNull(values.description), image: orNull(values.image) };
}

interface CardFieldInput {
  values: SocialCardValues;
  errors?: FieldErrors | undefined;
  /** The stored link, when editing: its title and the destination's og: tags are the defaults. */
  existing?: LinkView | undefined;
  /** The title typed in the form, the first default of the card's. */
  title: string;
}

/** The "Social card" section: what link previews show, with a preview of the card as it stands. */
export function socialCardSection(view: View, p: CardFieldInput): RawHtml {
  const t = view.t.linkForm.socialCard;
  const { values, errors } = p;
  const page = p.existing?.link.pageCard ?? null;
  const own = {
    title: values.title.trim() || null,
    description: values.description.trim() || null,
    image: values.image.trim() || null,
  };
  const card = resolveCard(own, p.title.trim() || null, page);
  return html`<div class="social-card-field">
<p class="hint">${t.hint}</p>
${textField({ name: 'social_card[title]', label: t.title, hint: t.titleHint, value: values.title, errors, maxlength: SOCIAL_CARD_LIMITS.titleMax, autocomplete: 'off' })}
${textArea({ name: 'social_card[description]', label: t.description, hint: t.descriptionHint, value: values.description, errors, rows: 3 })}
${textField({ name: 'social_card[image]', label: t.image, hint: t.imageHint, type: 'url', value: values.image, errors, inputmode: 'url', maxlength: 2048, autocomplete: 'off' })}
${imageUpload(view, p.existing?.link.id, own.image)}
<figure class="social-card-preview">
<figcaption>${t.previewLabel}</figcaption>
${
  card === null
    ? html`<p class="muted">${t.none}</p>`
    : html`<div class="card">
<p><strong>${card.title ?? t.noTitle}</strong></p>
${card.description !== null && html`<p>${card.description}</p>`}
${card.image !== null && uploadedPath(card.image) !== null && html`<img class="social-card-image" src="${uploadedPath(card.image)}" alt="" width="300">`}
${card.image !== null && html`<p class="muted url">${t.imageFrom(hostOf(card.image))}</p>`}
</div>`
}
</figure>
</div>`;
}

/** An uploaded image's own path: the preview loads it from this origin, whatever host APP_URL names. */
function uploadedPath(url: string): string | null {
  const upload = uploadedCardImage(url);
  return upload === null ? null : new URL(url).pathname;
}

/**
 * The card image's upload, inside the link form: its buttons post the whole form (its CSRF token
 * and every field as typed, so a refusal shows them again) to the upload's own routes, multipart
 * for the file; no JavaScript needed. A new link has no id to upload for yet.
 */
function imageUpload(view: View, linkId: number | undefined, image: string | null): RawHtml {
  const t = view.t.linkForm.socialCard;
  if (linkId === undefined) return html`<p class="hint">${t.uploadNew}</p>`;
  const uploaded = uploadedCardImage(image)?.linkId === linkId;
  return html`<div class="field">
<label for="social-card-upload">${t.upload}</label>
<p class="hint" id="social-card-upload-hint">${t.uploadHint}</p>
<input id="social-card-upload" name="social_card_upload" type="file" accept="image/png" aria-describedby="social-card-upload-hint">
<div class="actions">
<button type="submit" class="secondary" formaction="/links/${linkId}/social-card/image" formenctype="multipart/form-data" formnovalidate>${t.uploadButton}</button>
${uploaded && html`<button type="submit" class="secondary danger" formaction="/links/${linkId}/social-card/image/remove" formenctype="application/x-www-form-urlencoded" formnovalidate>${t.removeButton}</button>`}
</div>
</div>`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
