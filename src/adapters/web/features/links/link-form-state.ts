import type { LinkView } from '../../../../core/links/link.ts';
import { epochMsToZonedParts } from '../../../../core/expiration/ends-at.ts';
import { TARGET_LISTS, type TargetListName } from '../../../../core/targeting/target.ts';
import { tagsOfText, tagsTextOfForm, tagsTextOfLink } from './link-tags-field.ts';
import {
  cardBodyOf,
  cardValuesOfForm,
  cardValuesOfLink,
  emptyCardValues,
  type SocialCardValues,
} from './link-social-card-field.ts';

export type KeyedListName = Exclude<TargetListName, 'rotation'>;
export interface TargetRow {
  key: string;
  value: string;
}

/**
 * What the link form shows: every field as the text the browser sent (or the stored link gave),
 * so a form that failed comes back exactly as it was typed. Passwords are never part of it.
 */
export interface LinkFormValues {
  url: string;
  title: string;
  domain: string;
  alias: string;
  space: string;
  pixels: string[];
  /** Tag names separated by commas (link-tags-field.ts). */
  tags: string;
  disabled: boolean;
  /** The redirect adds lpx_cid, a signed click id, for conversions (docs/design/rules.md). */
  track_conversions: boolean;
  privacy: string;
  remove_password: boolean;
  expiration_date: string;
  expiration_time: string;
  expiration_clicks: string;
  expiration_url: string;
  target_type: string;
  /** App links (docs/design/rules.md): where iOS and Android visitors go instead of url. */
  ios_url: string;
  android_url: string;
  /** The link preview's fields (link-social-card-field.ts). */
  social_card: SocialCardValues;
  lists: Record<TargetListName, TargetRow[]>;
}

/**
 * The passwords as typed. Shown again only in the answer to a row button's post (the form's own
 * round trip, in the body of a POST answer that is not stored), never on a GET or in a URL.
 */
export interface TypedSecrets {
  password: string;
  privacy_password: string;
}

/** The form's own buttons that change the form rather than the link. */
export type RowAction = { add: TargetListName } | { remove: TargetListName; index: number };

/** The bound of each list, as the API's schema has it. */
export const ROWS_MAX = 300;

type Form = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function rowsOf(value: unknown): TargetRow[] {
  // qs makes `country[0][key]` an array, but an object for indices past its array limit.
  const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  return items.slice(0, ROWS_MAX).map((item: unknown) => {
    const row = item && typeof item === 'object' ? (item as Form) : {};
    return { key: text(row.key), value: text(row.value) };
  });
}

function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return items.filter((v): v is string => typeof v === 'string' && v !== '');
}

/** A new link's form; `privacy`: the statistics privacy a link made without one gets (DEFAULT_STATS_PRIVACY). */
export function emptyValues(privacy: number): LinkFormValues {
  return {
    url: '',
    title: '',
    domain: '',
    alias: '',
    space: '',
    pixels: [],
    tags: '',
    disabled: false,
    track_conversions: false,
    privacy: String(privacy),
    remove_password: false,
    expiration_date: '',
    expiration_time: '',
    expiration_clicks: '',
    expiration_url: '',
    target_type: '0',
    ios_url: '',
    android_url: '',
    social_card: emptyCardValues(),
    lists: { country: [], platform: [], language: [], rotation: [] },
  };
}

/** A posted form, read defensively: anything not of the expected shape reads as empty. */
export function valuesOfForm(raw: unknown): LinkFormValues {
  const form = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Form) : {};
  const lists = Object.fromEntries(TARGET_LISTS.map((name) => [name, rowsOf(form[name])])) as LinkFormValues['lists'];
  return {
    url: text(form.url),
    title: text(form.title),
    domain: text(form.domain),
    alias: text(form.alias),
    space: text(form.space),
    pixels: listOf(form.pixels),
    tags: tagsTextOfForm(form.tags),
    disabled: text(form.disabled) === '1',
    track_conversions: text(form.track_conversions) === '1',
    privacy: text(form.privacy),
    remove_password: text(form.remove_password) === '1',
    expiration_date: text(form.expiration_date),
    expiration_time: text(form.expiration_time),
    expiration_clicks: text(form.expiration_clicks),
    expiration_url: text(form.expiration_url),
    target_type: text(form.target_type),
    ios_url: text(form.ios_url),
    android_url: text(form.android_url),
    social_card: cardValuesOfForm(form.social_card),
    lists,
  };
}

/** The stored link, as its edit form starts. */
export function valuesOfLink(view: LinkView, timeZone: string): LinkFormValues {
  const { link } = view;
  const ends = link.endsAt === null ? null : epochMsToZonedParts(link.endsAt, timeZone);
  return {
    url: link.url,
    title: link.title ?? '',
    domain: link.domainId === null ? '' : String(link.domainId),
    alias: link.alias,
    space: link.spaceId === null ? '' : String(link.spaceId),
    pixels: link.pixelIds.map(String),
    tags: tagsTextOfLink(view),
    disabled: link.disabled === 1,
    track_conversions: link.trackConversions === 1,
    privacy: String(link.privacy),
    remove_password: false,
    expiration_date: ends?.date ?? '',
    expiration_time: ends?.time ?? '',
    expiration_clicks: link.expirationClicks === null ? '' : String(link.expirationClicks),
    expiration_url: link.expirationUrl ?? '',
    target_type: String(link.targetType),
    ios_url: link.iosUrl ?? '',
    android_url: link.androidUrl ?? '',
    social_card: cardValuesOfLink(link.socialCard),
    lists: {
      country: (link.targets.country ?? []).map((t) => ({ ...t })),
      platform: (link.targets.platform ?? []).map((t) => ({ ...t })),
      language: (link.targets.language ?? []).map((t) => ({ ...t })),
      rotation: (link.targets.rotation ?? []).map((t) => ({ key: '', value: t.value })),
    },
  };
}

const isList = (name: string): name is TargetListName => (TARGET_LISTS as readonly string[]).includes(name);

/** `add_row=country` or `remove_row=country:2`, when the form was sent by one of those buttons. */
export function rowActionOf(raw: unknown): RowAction | null {
  const form = raw && typeof raw === 'object' ? (raw as Form) : {};
  const add = text(form.add_row);
  if (isList(add)) return { add };
  const match = /^([a-z]+):(\d{1,3})$/.exec(text(form.remove_row));
  if (match && isList(match[1]!)) return { remove: match[1], index: Number(match[2]) };
  return null;
}

export function applyRowAction(values: LinkFormValues, action: RowAction): LinkFormValues {
  const lists = { ...values.lists };
  if ('add' in action) {
    if (lists[action.add].length < ROWS_MAX) lists[action.add] = [...lists[action.add], { key: '', value: '' }];
  } else {
    lists[action.remove] = lists[action.remove].filter((_, i) => i !== action.index);
  }
  return { ...values, lists };
}

/**
 * The API's link body for these values, as a form would send it to the API: blank fields clear,
 * with the web form's own meanings on top — a blank password keeps the one set (the "remove"
 * box clears it), the domain is chosen once, a blank title on create lets the page's be fetched,
 * no ticked pixel and no row mean none.
 */
export function linkBodyOf(values: LinkFormValues, mode: 'create' | 'edit', secrets: TypedSecrets): Form {
  const orNull = (s: string) => (s.trim() === '' ? null : s);
  const body: Form = {
    url: orNull(values.url),
    alias: orNull(values.alias),
    space: orNull(values.space),
    // A copy: the schema coerces the body's lists in place, and the form shows these values again.
    pixels: values.pixels.length > 0 ? [...values.pixels] : null,
    tags: tagsOfText(values.tags),
    disabled: values.disabled ? '1' : '0',
    track_conversions: values.track_conversions ? '1' : '0',
    expiration_url: orNull(values.expiration_url),
    expiration_date: orNull(values.expiration_date),
    expiration_time: orNull(values.expiration_time),
    expiration_clicks: orNull(values.expiration_clicks),
    ios_url: orNull(values.ios_url),
    android_url: orNull(values.android_url),
    social_card: cardBodyOf(values.social_card),
  };
  if (mode === 'create') body.domain = orNull(values.domain);
  if (values.title.trim() !== '' || mode === 'edit') body.title = orNull(values.title);
  if (values.privacy !== '') body.privacy = values.privacy;
  if (values.target_type !== '') body.target_type = values.target_type;
  if (values.remove_password) body.password = null;
  else if (secrets.password !== '') body.password = secrets.password;
  if (secrets.privacy_password !== '') body.privacy_password = secrets.privacy_password;
  for (const name of TARGET_LISTS) {
    const rows = values.lists[name];
    body[name] =
      rows.length === 0
        ? null
        : rows.map((r) =>
            name === 'rotation' ? { value: orNull(r.value) } : { key: orNull(r.key), value: orNull(r.value) },
          );
  }
  return body;
}
