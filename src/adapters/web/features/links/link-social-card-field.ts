import { resolveCard, SOCIAL_CARD_LIMITS, type SocialCard } from '../../../../core/links/social-card.ts';
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
<figure class="social-card-preview">
<figcaption>${t.previewLabel}</figcaption>
${
  card === null
    ? html`<p class="muted">${t.none}</p>`
    : html`<div class="card">
<p><strong>${card.title ?? t.noTitle}</strong></p>
${card.description !== null && html`<p>${card.description}</p>`}
${card.image !== null && html`<p class="muted url">${t.imageFrom(hostOf(card.image))}</p>`}
</div>`
}
</figure>
</div>`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
