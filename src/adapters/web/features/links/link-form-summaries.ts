import type { Link } from '../../../../core/links/link.ts';
import { TARGET_LISTS } from '../../../../core/targeting/target.ts';
import { UTM_PARAMS, type UtmParams } from '../../../../core/utm/utm-params.ts';
import type { LinkFormValues, TypedSecrets } from './link-form-state.ts';
import { tagsOfText } from './link-tags-field.ts';

/** The words a summary is made of (the catalogue's `linkForm.sections.says`). */
export interface SummaryWords {
  none: string;
  tags: (n: number) => string;
  space: (name: string) => string;
  rules: (n: number) => string;
  targeting: (by: string, rows: number) => string;
  password: string;
  passwordRemoved: string;
  disabled: string;
  statsPrivate: string;
  statsPassword: string;
  expiresOn: (date: string, time: string) => string;
  expiresAfter: (clicks: string) => string;
  pixels: (n: number) => string;
  conversions: string;
  ios: string;
  android: string;
}

/** What a section's summary reads beside the form's values. */
export interface SummaryContext {
  values: LinkFormValues;
  words: SummaryWords;
  /** The stored link, when editing: a password set before shows as set. */
  link?: Pick<Link, 'passwordHash' | 'privacyPasswordHash' | 'rules'> | undefined;
  secrets?: TypedSecrets | undefined;
  /** The UTM builder's five fields as the page shows them. */
  utm: UtmParams;
  /** Names the form shows for a space id and a targeting type. */
  spaceName?: (id: string) => string | undefined;
  targetTypeName?: (type: string) => string | undefined;
}

const SEP = ' · ';
const joined = (parts: string[], none: string): string => (parts.length > 0 ? parts.join(SEP) : none);

export function tagsSummary(c: SummaryContext): string {
  const tags = tagsOfText(c.values.tags).length;
  const space = c.values.space === '' ? undefined : (c.spaceName?.(c.values.space) ?? c.values.space);
  const parts = [
    ...(space === undefined ? [] : [c.words.space(space)]),
    ...(tags > 0 ? [c.words.tags(tags)] : []),
    ...UTM_PARAMS.filter((name) => c.utm[name] !== '').map((name) => `${name}=${c.utm[name]}`),
  ];
  return joined(parts, c.words.none);
}

export function targetingSummary(c: SummaryContext): string {
  const rules = c.link?.rules?.length ?? 0;
  if (rules > 0) return c.words.rules(rules);
  const type = c.values.target_type;
  if (type === '' || type === '0') return c.words.none;
  const list = TARGET_LISTS[Number(type) - 1];
  const rows = list ? c.values.lists[list].filter((r) => r.value.trim() !== '').length : 0;
  return c.words.targeting(c.targetTypeName?.(type) ?? type, rows);
}

export function protectionSummary(c: SummaryContext): string {
  const { values, link, secrets, words } = c;
  const parts: string[] = [];
  if (values.remove_password) parts.push(words.passwordRemoved);
  else if ((secrets?.password ?? '') !== '' || link?.passwordHash) parts.push(words.password);
  if (values.disabled) parts.push(words.disabled);
  if (values.privacy === '1') parts.push(words.statsPrivate);
  if (values.privacy === '2') parts.push(words.statsPassword);
  return joined(parts, words.none);
}

export function expirySummary(c: SummaryContext): string {
  const { values, words } = c;
  const parts: string[] = [];
  if (values.expiration_date.trim() !== '')
    parts.push(words.expiresOn(values.expiration_date.trim(), values.expiration_time.trim()));
  const clicks = values.expiration_clicks.trim();
  if (clicks !== '' && clicks !== '0') parts.push(words.expiresAfter(clicks));
  return joined(parts, words.none);
}

export function trackingSummary(c: SummaryContext): string {
  const { values, words } = c;
  const parts: string[] = [];
  if (values.pixels.length > 0) parts.push(words.pixels(values.pixels.length));
  if (values.track_conversions) parts.push(words.conversions);
  return joined(parts, words.none);
}

export function appLinksSummary(c: SummaryContext): string {
  const { values, words } = c;
  const parts: string[] = [];
  if (values.ios_url.trim() !== '') parts.push(words.ios);
  if (values.android_url.trim() !== '') parts.push(words.android);
  return joined(parts, words.none);
}
