import { HEALTH_REASONS, HEALTH_STATUSES } from '../../../core/health/health.ts';
import { Type, type Static } from '@sinclair/typebox';
import { LINK_LIMITS } from '../../../core/links/link-input.ts';
import { TAG_LIMITS } from '../../../core/tags/tag.ts';
import { RULE_LIMITS } from '../../../core/rules/rule.ts';
import { URL_MAX_LENGTH } from '../../../core/links/url-policy.ts';
import { SOCIAL_CARD_LIMITS } from '../../../core/links/social-card.ts';
import { PLATFORMS, TARGET_TYPE_VALUES } from '../../../core/targeting/target.ts';
import { Enum, Id, Nullable, NullableEnum, PageQuery, Timestamp } from './common.ts';
import { SpaceRecord } from './space.ts';
import { DomainRecord } from './domain.ts';
import { PixelRecord } from './pixel.ts';

const Url = (description: string) => Type.String({ maxLength: URL_MAX_LENGTH, description });
const KeyedEntry = (key: string) =>
  Type.Object({
    key: Nullable(Type.String({ maxLength: 32, description: key })),
    value: Nullable(Url('Destination URL for this key')),
  });
const RotationEntry = Type.Object({ value: Nullable(Url('Destination URL of this rotation entry')) });
/** A link preview as a client writes it: each field blank or null for its default (core/links/social-card.ts). */
const SocialCardBody = Type.Object(
  {
    title: Type.Optional(
      Nullable(
        Type.String({
          maxLength: SOCIAL_CARD_LIMITS.titleMax,
          description: "Default: the link's title, else the destination's og:title",
        }),
      ),
    ),
    description: Type.Optional(
      Nullable(
        Type.String({
          maxLength: SOCIAL_CARD_LIMITS.descriptionMax,
          description: "Default: the destination's og:description",
        }),
      ),
    ),
    image: Type.Optional(
      Nullable(
        Type.String({
          maxLength: URL_MAX_LENGTH,
          description: "An https URL; default: the destination's og:image. The web form also takes an upload",
        }),
      ),
    ),
  },
  {
    title: 'SocialCardInput',
    description:
      'What link previews (Slack, X, Facebook, LinkedIn, Discord, WhatsApp, Telegram, iMessage) show; null: the defaults. Replaces the card as a whole',
  },
);

/** A link preview as the record shows it. */
const SocialCardRecord = (title: string, description: string) =>
  Type.Object(
    { title: Nullable(Type.String()), description: Nullable(Type.String()), image: Nullable(Type.String()) },
    { title, description },
  );

const List = <T extends ReturnType<typeof KeyedEntry> | typeof RotationEntry>(item: T, description: string) =>
  Type.Optional(Nullable(Type.Array(item, { maxItems: 300, description })));

export const LinkBody = Type.Object({
  url: Type.Optional(Nullable(Url('Destination; required on create. http(s) only by default'))),
  domain: Type.Optional(Nullable(Id("Id of one of the account's domains (create only)"))),
  alias: Type.Optional(
    Nullable(
      Type.String({ maxLength: LINK_LIMITS.aliasMax, description: 'Letters, digits, - and _; random when absent' }),
    ),
  ),
  title: Type.Optional(
    Nullable(Type.String({ maxLength: LINK_LIMITS.titleMax, description: 'Fetched from the destination when absent' })),
  ),
  social_card: Type.Optional(Nullable(SocialCardBody)),
  password: Type.Optional(
    Nullable(
      Type.String({
        maxLength: LINK_LIMITS.passwordMax,
        description: 'Visitors must enter it before being redirected',
      }),
    ),
  ),
  space: Type.Optional(Nullable(Id("Id of one of the account's spaces"))),
  pixels: Type.Optional(
    Nullable(Type.Array(Id(), { maxItems: LINK_LIMITS.pixelsMax, description: "Ids of the account's pixels" })),
  ),
  tags: Type.Optional(
    Nullable(
      Type.Array(Type.String({ maxLength: 256 }), {
        maxItems: 100,
        description: `Tag names (1–${TAG_LIMITS.nameMax} characters, at most ${TAG_LIMITS.perLink} after repeats ignoring case are dropped); a new name becomes a tag; form: tags[]=`,
      }),
    ),
  ),
  disabled: Type.Optional(NullableEnum([0, 1] as const, '0 active, 1 disabled')),
  track_conversions: Type.Optional(
    NullableEnum([0, 1] as const, '1: the redirect adds lpx_cid, a signed click id, to the destination (conversions)'),
  ),
  privacy: Type.Optional(
    NullableEnum(
      [0, 1, 2] as const,
      'Statistics page: 0 public, 1 private, 2 password; absent or null: 1 (DEFAULT_STATS_PRIVACY)',
    ),
  ),
  privacy_password: Type.Optional(
    Nullable(
      Type.String({
        maxLength: LINK_LIMITS.passwordMax,
        description: 'Password of the statistics page when privacy is 2',
      }),
    ),
  ),
  expiration_url: Type.Optional(Nullable(Url('Where an expired link sends visitors'))),
  expiration_date: Type.Optional(
    Nullable(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, in the account time zone; with expiration_time' })),
  ),
  expiration_time: Type.Optional(
    Nullable(Type.String({ maxLength: 5, description: 'HH:MM, in the account time zone; with expiration_date' })),
  ),
  expiration_clicks: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 0,
        maximum: LINK_LIMITS.expirationClicksMax,
        description: 'Expire after this many clicks; 0 = no limit',
      }),
    ),
  ),
  target_type: Type.Optional(NullableEnum(TARGET_TYPE_VALUES, '0 none, 1 country, 2 platform, 3 language, 4 rotation')),
  country: List(KeyedEntry('ISO 3166-1 alpha-2 country code'), 'Country targets'),
  platform: List(KeyedEntry(`One of ${PLATFORMS.join(', ')}`), 'Platform targets'),
  language: List(KeyedEntry('ISO 639-1 language code'), 'Language targets'),
  rotation: List(RotationEntry, 'Rotation targets, served in turn'),
  rules: Type.Optional(
    // The validator coerces (a form's text, a null, may arrive as a one-item list): check-rules.ts unwraps them.
    Type.Union([Type.Array(Type.Unknown()), Type.String({ maxLength: 200_000 }), Type.Null()], {
      description: `Ordered rules, the first whose conditions all hold decides (docs/api.md, Rules); at most ${RULE_LIMITS.rules}. JSON text in a form. Sets target_type 0; null or [] clears`,
    }),
  ),
  ios_url: Type.Optional(
    Nullable(
      AppUrl(
        "iOS visitors go here when the link's url is their destination: https (a universal link) or a scheme on APP_SCHEMES",
      ),
    ),
  ),
  android_url: Type.Optional(
    Nullable(
      AppUrl(
        "Android visitors go here when the link's url is their destination: https (an app link) or a scheme on APP_SCHEMES",
      ),
    ),
  ),
});
export type LinkBody = Static<typeof LinkBody>;

/** An app link: the core checks its scheme (UrlPolicy.checkApp), so the 422 names the field. */
function AppUrl(description: string) {
  return Type.String({ maxLength: URL_MAX_LENGTH, description });
}

const KeyedTarget = Type.Object({ key: Type.String(), value: Type.String() });

/** A link's destination health: derived by the checks, never set, exported or imported. */
const LinkHealthRecord = Type.Object(
  {
    status: Enum(HEALTH_STATUSES),
    code: Nullable(Type.Integer({ description: "The last answer's HTTP status" })),
    reason: Type.Union([Enum(HEALTH_REASONS), Type.Null()], { description: 'Why it is broken' }),
    checked_at: Nullable(Timestamp),
    broken_since: Nullable(Timestamp),
  },
  { title: 'LinkHealth' },
);

export const LinkRecord = Type.Object(
  {
    id: Type.Integer(),
    alias: Type.String(),
    url: Type.String(),
    short_url: Type.String({ description: 'Absolute short URL' }),
    title: Nullable(Type.String()),
    social_card: Nullable(
      SocialCardRecord('SocialCard', "The link's own preview card, or null: unfurlers are shown the defaults"),
    ),
    page_card: Nullable(
      SocialCardRecord(
        'PageCard',
        "The destination's own og: tags, fetched with its title when TITLE_FETCH is on (read only), or null",
      ),
    ),
    target_type: Type.Integer(),
    country_target: Nullable(Type.Array(KeyedTarget)),
    platform_target: Nullable(Type.Array(KeyedTarget)),
    language_target: Nullable(Type.Array(KeyedTarget)),
    rotation_target: Nullable(Type.Array(Type.Object({ value: Type.String() }))),
    rules: Nullable(
      Type.Array(Type.Unknown(), {
        description:
          "The link's rules; for a phpShort country, platform or language target, its one-condition equivalent",
      }),
    ),
    ios_url: Nullable(Type.String({ description: 'App link for iOS visitors, or null' })),
    android_url: Nullable(Type.String({ description: 'App link for Android visitors, or null' })),
    track_conversions: Type.Integer({
      enum: [0, 1],
      description: '1: visits carry lpx_cid, a signed click id, to the destination',
    }),
    last_rotation: Type.Integer(),
    disabled: Type.Integer({ enum: [0, 1] }),
    privacy: Type.Integer({ enum: [0, 1, 2] }),
    privacy_password: Type.Boolean({ description: 'A statistics password is set' }),
    password: Type.Boolean({ description: 'A redirect password is set' }),
    expiration_url: Nullable(Type.String()),
    expiration_clicks: Nullable(Type.Integer()),
    clicks: Type.Integer(),
    space: Nullable(SpaceRecord),
    domain: Nullable(DomainRecord),
    pixels: Type.Array(PixelRecord),
    tags: Type.Array(Type.String(), { description: "The link's tag names, by name" }),
    health: LinkHealthRecord,
    ends_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Link' },
);

export const LinkListQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: 255,
      description: 'Case-insensitive; 1 or 2 characters: the start of the `by` field, 3+: anywhere in it',
    }),
  ),
  by: Enum(['title', 'alias', 'url'] as const, { default: 'title', description: 'Field searched (alias: search_by)' }),
  status: Enum([0, 1, 2, 3] as const, { default: 0, description: '0 all, 1 active, 2 expired, 3 disabled' }),
  space: Type.Optional(Id('Space id (alias: space_id)')),
  domain: Type.Optional(Id('Domain id (alias: domain_id)')),
  pixel: Type.Optional(Id('Pixel id (alias: pixel_id)')),
  tag: Type.Optional(
    Type.String({ maxLength: 256, description: 'A tag name, ignoring case: only links that carry it' }),
  ),
  health: Type.Optional(
    Enum(HEALTH_STATUSES, {
      description: "Only links whose destination's last check found this (docs/design/health.md)",
    }),
  ),
  sort: Enum(['desc', 'asc', 'max', 'min'] as const, {
    default: 'desc',
    description: 'desc/asc by id; max/min by clicks',
  }),
  ...PageQuery,
});
export type LinkListQuery = Static<typeof LinkListQuery>;

/** The web app's list: the API's query, but a search looks in all three fields unless told (`any`). */
export const WebLinkListQuery = Type.Object({
  ...LinkListQuery.properties,
  by: Enum(['any', 'title', 'alias', 'url'] as const, { default: 'any' }),
});
export type WebLinkListQuery = Static<typeof WebLinkListQuery>;
