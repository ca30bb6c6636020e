import { type FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { isValidDate, isValidTime, zonedDateTimeToEpochMs } from '../expiration/ends-at.ts';
import { checkTargetList } from '../targeting/targeting-rules.ts';
import { TARGET_LISTS, TARGET_TYPE_VALUES, type TargetType, type Targets } from '../targeting/target.ts';
import { ALIAS_PATTERN, isReservedAlias } from './aliases.ts';
import { LINK_LIMITS, type LinkInput } from './link-input.ts';
import type { Link, LinkFields } from './link.ts';
import type { UrlPolicy } from './url-policy.ts';
import type { DefaultStatsPrivacy } from './new-link-fields.ts';
import { checkTagNames } from '../tags/tag-names.ts';
import { checkRules } from '../rules/check-rules.ts';
import { checkSocialCard } from './social-card.ts';

/** What the pure rules make of an input; secrets are still plain here and hashed by the service. */
export interface CheckedLinkInput {
  fields: Partial<Omit<LinkFields, 'passwordHash' | 'privacyPasswordHash'>>;
  password?: string | null;
  privacyPassword?: string | null;
  pixelIds?: number[];
  /** The tag names, read and without repeats; undefined: the tags are left as they are. */
  tagNames?: string[];
}

export interface LinkRuleContext {
  urls: UrlPolicy;
  timeZone: string;
  /** The stored link on update; undefined on create. */
  existing?: Link | undefined;
  /** What `privacy` null (an empty field) stands for: the operator's default, as for a create without it. */
  defaultPrivacy: DefaultStatsPrivacy;
}

/** Applies every rule that needs no database, listing each bad field in the bag. */
export function checkLinkInput(input: LinkInput, ctx: LinkRuleContext, bag: FieldErrorBag): CheckedLinkInput {
  const creating = ctx.existing === undefined;
  const out: CheckedLinkInput = { fields: {} };
  const f = out.fields;

  if (input.url !== undefined || creating) {
    if (!input.url) bag.add('url', messages.required('url'));
    else f.url = ctx.urls.check(bag, 'url', input.url);
  }
  if (input.alias) {
    const alias = input.alias.trim();
    if (alias.length > LINK_LIMITS.aliasMax) bag.add('alias', messages.maxChars('alias', LINK_LIMITS.aliasMax));
    else if (!ALIAS_PATTERN.test(alias)) bag.add('alias', messages.invalid('alias'));
    else if (isReservedAlias(alias)) bag.add('alias', messages.reserved('alias'));
    else f.alias = alias;
  }
  if (input.title !== undefined) {
    const title = input.title?.trim() || null;
    if (title && title.length > LINK_LIMITS.titleMax)
      bag.add('title', messages.maxChars('title', LINK_LIMITS.titleMax));
    else f.title = title;
  }
  const card = checkSocialCard(bag, input.social_card);
  if (card !== undefined) f.socialCard = card;
  if (input.disabled !== undefined) f.disabled = (input.disabled ?? 0) === 1 ? 1 : 0;
  if (input.track_conversions !== undefined) f.trackConversions = (input.track_conversions ?? 0) === 1 ? 1 : 0;
  if (input.target_type !== undefined) {
    const t = input.target_type ?? 0;
    if (TARGET_TYPE_VALUES.includes(t)) f.targetType = t as TargetType;
    else bag.add('target_type', messages.selected('target_type'));
  }
  checkSecrets(input, ctx, bag, out);
  checkExpiry(input, ctx, bag, out);
  checkTargets(input, ctx, bag, out);
  checkRuleList(input, ctx, bag, out);
  const iosUrl = ctx.urls.checkApp(bag, 'ios_url', input.ios_url);
  if (iosUrl !== undefined) f.iosUrl = iosUrl;
  const androidUrl = ctx.urls.checkApp(bag, 'android_url', input.android_url);
  if (androidUrl !== undefined) f.androidUrl = androidUrl;
  if (input.tags !== undefined) out.tagNames = checkTagNames(bag, 'tags', input.tags ?? []);
  if (input.pixels !== undefined) {
    const ids = [...new Set(input.pixels ?? [])];
    if (ids.length > LINK_LIMITS.pixelsMax) bag.add('pixels', messages.max('pixels', LINK_LIMITS.pixelsMax));
    else out.pixelIds = ids;
  }
  return out;
}

function checkSecrets(input: LinkInput, ctx: LinkRuleContext, bag: FieldErrorBag, out: CheckedLinkInput): void {
  for (const [field, key] of [
    ['password', 'password'],
    ['privacy_password', 'privacyPassword'],
  ] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value && value.length > LINK_LIMITS.passwordMax)
      bag.add(field, messages.maxChars(field, LINK_LIMITS.passwordMax));
    else out[key] = value || null;
  }
  if (input.privacy !== undefined) {
    const privacy = input.privacy ?? ctx.defaultPrivacy;
    if (privacy === 0 || privacy === 1 || privacy === 2) out.fields.privacy = privacy;
    else bag.add('privacy', messages.selected('privacy'));
  }
  // A password-protected stats page needs a password to ask for.
  const privacy = out.fields.privacy ?? ctx.existing?.privacy ?? ctx.defaultPrivacy;
  const hasPassword =
    out.privacyPassword !== undefined ? out.privacyPassword !== null : !!ctx.existing?.privacyPasswordHash;
  if (privacy === 2 && !hasPassword && !bag.has('privacy_password')) {
    bag.add('privacy_password', messages.statsPasswordRequired());
  }
}

function checkExpiry(input: LinkInput, ctx: LinkRuleContext, bag: FieldErrorBag, out: CheckedLinkInput): void {
  const f = out.fields;
  const expirationUrl = ctx.urls.checkOptional(bag, 'expiration_url', input.expiration_url);
  if (expirationUrl !== undefined) f.expirationUrl = expirationUrl;
  if (input.expiration_clicks !== undefined) {
    const n = input.expiration_clicks;
    if (n !== null && (n < 0 || n > LINK_LIMITS.expirationClicksMax))
      bag.add('expiration_clicks', messages.min('expiration_clicks', 0));
    else f.expirationClicks = n || null;
  }
  const { expiration_date: date, expiration_time: time } = input;
  if (date === undefined && time === undefined) return;
  if (!date && !time) {
    f.endsAt = null;
    return;
  }
  if (!date) return bag.add('expiration_date', messages.requiredWith('expiration_date', 'expiration_time'));
  if (!time) return bag.add('expiration_time', messages.requiredWith('expiration_time', 'expiration_date'));
  const dateOk = isValidDate(date);
  const timeOk = isValidTime(time);
  if (!dateOk) bag.add('expiration_date', messages.date('expiration_date'));
  if (!timeOk) bag.add('expiration_time', messages.time('expiration_time'));
  if (dateOk && timeOk) f.endsAt = zonedDateTimeToEpochMs(date, time, ctx.timeZone);
}

function checkTargets(input: LinkInput, ctx: LinkRuleContext, bag: FieldErrorBag, out: CheckedLinkInput): void {
  const lists: Partial<Targets> = {};
  for (const name of TARGET_LISTS) {
    const checked = checkTargetList(bag, name, input[name], ctx.urls);
    if (checked !== undefined) (lists as Record<string, unknown>)[name] = checked;
  }
  if (Object.keys(lists).length === 0) return;
  const base = ctx.existing?.targets ?? { country: null, platform: null, language: null, rotation: null };
  out.fields.targets = { ...base, ...lists };
}

/**
 * phpShort compatibility (docs/design/rules.md): rules, when sent, decide and set target_type 0 (the lists
 * are kept but do not act); a client that writes a non-zero target_type or a list entry without
 * rules is a phpShort client, and its targeting replaces the rules.
 */
function checkRuleList(input: LinkInput, ctx: LinkRuleContext, bag: FieldErrorBag, out: CheckedLinkInput): void {
  const f = out.fields;
  if (input.rules !== undefined) {
    const rules = checkRules(bag, input.rules, ctx.urls);
    if (rules === undefined) return;
    f.rules = rules;
    if (rules !== null) f.targetType = 0;
    return;
  }
  // target_type 0 with no list entries is what a rules link reads as: a client echoing the record
  // back (the web form does) keeps the rules; `rules: null` removes them.
  const phpShortTargeting =
    (input.target_type ?? 0) !== 0 || TARGET_LISTS.some((name) => (input[name]?.length ?? 0) > 0);
  if (phpShortTargeting && ctx.existing?.rules != null) f.rules = null;
}
