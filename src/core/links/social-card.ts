import type { FieldFaults } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { URL_MAX_LENGTH } from './url-policy.ts';

/**
 * What a link preview (an unfurler's card: Slack, X, Facebook …) shows of a link. Each field null:
 * that field falls back to its default (the link's title, the destination's own og: tags).
 */
export interface SocialCard {
  title: string | null;
  description: string | null;
  /** An absolute https URL; an uploaded image is served by linkpix and named here by its address (`cardImagePath`). */
  image: string | null;
}

export const SOCIAL_CARD_LIMITS = { titleMax: 255, descriptionMax: 500 } as const;

const FIELDS = ['title', 'description', 'image'] as const;

/** null for a card whose fields are all null: a link has a card of its own or none. */
export function cardOrNull(card: SocialCard): SocialCard | null {
  return card.title === null && card.description === null && card.image === null ? null : card;
}

/**
 * Where linkpix serves a link's uploaded card image, under APP_URL: the link's id and the first
 * 16 hex digits of the SHA-256 of the stored bytes, so that an address is known only to who has
 * seen the card, and a new image is a new address (docs/design/social-cards.md).
 */
export const cardImagePath = (linkId: number, hash: string): string => `/public/cards/${linkId}/${hash}.png`;

const CARD_IMAGE_PATH = /^\/public\/cards\/([1-9][0-9]{0,15})\/([0-9a-f]{16})\.png$/;

/** The link and hash an uploaded image's address names (any host: APP_URL's), or null for any other URL. */
export function uploadedCardImage(url: string | null): { linkId: number; hash: string } | null {
  if (url === null) return null;
  let path: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    if (parsed.search !== '' || parsed.hash !== '') return null;
    path = parsed.pathname;
  } catch {
    return null;
  }
  const match = CARD_IMAGE_PATH.exec(path);
  return match ? { linkId: Number(match[1]), hash: match[2] as string } : null;
}

/**
 * An image's URL as a card may name it: https with a host, no spaces or controls, within the
 * bound; or the address of an uploaded image, which is APP_URL's, http on a development server.
 */
export function isCardImageUrl(value: string): boolean {
  if (value.length > URL_MAX_LENGTH) return false;
  if (!/^https:\/\//i.test(value) && !(/^http:\/\//i.test(value) && uploadedCardImage(value) !== null)) return false;
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return false; // eslint-disable-line no-control-regex -- refusing controls is the point
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/**
 * `social_card` as a client sent it: undefined (not sent, left as it is), null (none: the
 * defaults), or an object of the three fields, each text or null; blank text reads as null. A
 * bad field is named as `social_card.<field>`.
 */
export function checkSocialCard(bag: FieldFaults, raw: unknown): SocialCard | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    bag.add('social_card', messages.invalid('social_card'));
    return undefined;
  }
  const input = raw as Record<string, unknown>;
  const card: SocialCard = { title: null, description: null, image: null };
  let ok = true;
  for (const field of FIELDS) {
    const value = input[field];
    const name = `social_card.${field}`;
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      bag.add(name, messages.string(name));
      ok = false;
      continue;
    }
    const text = value.trim();
    if (text === '') continue;
    const fault = faultOf(field, name, text);
    if (fault !== null) {
      bag.add(name, fault);
      ok = false;
    } else card[field] = text;
  }
  return ok ? cardOrNull(card) : undefined;
}

function faultOf(field: (typeof FIELDS)[number], name: string, text: string): string | null {
  if (field === 'image')
    return isCardImageUrl(text) ? null : `The ${name} field must be an https URL or an uploaded PNG image.`;
  const max = field === 'title' ? SOCIAL_CARD_LIMITS.titleMax : SOCIAL_CARD_LIMITS.descriptionMax;
  return text.length > max ? messages.maxChars(name, max) : null;
}

/**
 * The card an unfurler is shown: the link's own card field by field, else the link's title, else
 * the destination's own og: tags (`page`, fetched with the title). null when there is nothing to show.
 */
export function resolveCard(own: SocialCard | null, title: string | null, page: SocialCard | null): SocialCard | null {
  const card: SocialCard = {
    title: own?.title ?? title ?? page?.title ?? null,
    description: own?.description ?? page?.description ?? null,
    image: own?.image ?? page?.image ?? null,
  };
  return cardOrNull(card);
}
