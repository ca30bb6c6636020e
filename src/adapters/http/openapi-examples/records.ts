const SPRING = '2026-03-02T10:15:00Z';

export const WEBHOOK = {
  id: 7,
  url: 'https://hooks.example.com/linkpix',
  events: ['link.created'],
  format: 'json',
  enabled: false,
  disabled_at: SPRING,
  failing_since: SPRING,
  created_at: SPRING,
};

export const CREATED_WEBHOOK = {
  id: 7,
  url: 'https://hooks.example.com/linkpix',
  events: ['link.created'],
  format: 'json',
  enabled: false,
  disabled_at: SPRING,
  failing_since: SPRING,
  created_at: SPRING,
  secret: 'whsec_5c1f0e8a2d9b47c6a3e1',
};

export const TAG = {
  id: 7,
  name: 'Campaigns',
  color: 'gray',
  links: 1,
  created_at: SPRING,
  updated_at: SPRING,
};

export const UTM_TEMPLATE = {
  id: 7,
  name: 'Campaigns',
  utm_source: 'newsletter',
  utm_medium: 'email',
  utm_campaign: 'spring-sale',
  utm_term: 'shoes',
  utm_content: 'header',
  created_at: SPRING,
  updated_at: SPRING,
};

export const EXPLANATION = {
  outcome: 'redirect',
  url: 'https://example.com/spring-sale',
  rule: 1,
  variant: 1,
  trace: [
    {
      rule: 1,
      name: 'Campaigns',
      matched: false,
      conditions: [
        {
          condition: 'country is DE',
          matched: false,
          value: null,
        },
      ],
    },
  ],
  pixels: [1],
  counts_click: false,
};

export const RULESPREVIEW = {
  clicks: 1,
  current: [
    {
      url: 'https://example.com/spring-sale',
      rule: 1,
      clicks: 1,
    },
  ],
  draft: [
    {
      url: 'https://example.com/spring-sale',
      rule: 1,
      clicks: 1,
    },
  ],
  changed: 1,
  unknown: [],
  days: 1,
  since: '2026-02-23',
};

export const LINK_VERSION = {
  version: 1,
  at: SPRING,
  actor: {
    user_id: 1,
    name: 'Campaigns',
  },
  via: 'web',
  restored_from: 1,
  changes: {},
};

export const SPACE = { id: 3, name: 'Campaigns', color: 3, created_at: SPRING, updated_at: SPRING };

export const PIXEL = {
  id: 5,
  name: 'GA4',
  type: 'google-analytics',
  value: 'G-7XK2M9QW1B',
  created_at: SPRING,
  updated_at: SPRING,
};

/** A link's create body: the seed's names, a country target and a tag. */
export const LINK_INPUT = {
  url: 'https://shop.example.com/sale?utm_source=newsletter',
  alias: 'spring',
  title: 'Spring sale',
  social_card: {
    title: 'Spring sale: half off everything',
    description: 'Until April 30, in every shop and online.',
    image: 'https://shop.example.com/img/spring-card.png',
  },
  space: 3,
  pixels: [5],
  tags: ['newsletter'],
  target_type: 1,
  country: [{ key: 'DE', value: 'https://shop.example.com/de/sale' }],
  expiration_date: '2026-04-30',
  expiration_time: '23:59',
};

/** An update sends only what changes. */
export const LINK_CHANGE = { title: 'Spring sale: last week', disabled: 0 };

export const LINK = {
  id: 7,
  alias: 'spring',
  url: 'https://shop.example.com/sale?utm_source=newsletter',
  short_url: 'https://lpx.example/spring',
  title: 'Spring sale',
  social_card: {
    title: 'Spring sale: half off everything',
    description: 'Until April 30, in every shop and online.',
    image: 'https://shop.example.com/img/spring-card.png',
  },
  page_card: {
    title: 'Spring sale | Shop',
    description: 'Our spring sale.',
    image: 'https://shop.example.com/img/og.png',
  },
  target_type: 1,
  country_target: [{ key: 'DE', value: 'https://shop.example.com/de/sale' }],
  platform_target: null,
  language_target: null,
  rotation_target: null,
  rules: [],
  ios_url: null,
  android_url: null,
  track_conversions: 1,
  last_rotation: 0,
  disabled: 0,
  privacy: 0,
  privacy_password: false,
  password: false,
  expiration_url: null,
  expiration_clicks: 0,
  clicks: 1280,
  space: SPACE,
  domain: null,
  pixels: [PIXEL],
  tags: ['newsletter'],
  health: { status: 'ok', code: 200, reason: null, checked_at: SPRING, broken_since: null },
  ends_at: '2026-04-30T21:59:00Z',
  created_at: SPRING,
  updated_at: SPRING,
};

export const LINK_SCHEDULE = {
  id: 7,
  at: SPRING,
  changes: {},
  status: 'pending',
  reason: null,
};

export const CONVERSION = {
  id: 7,
  link_id: 1,
  click_id: 'c_8Jk2Qx7Lm',
  rule: 1,
  variant: 1,
  name: 'Campaigns',
  value: 1,
  currency: 'EUR',
  clicked_at: SPRING,
  created_at: SPRING,
};

export const WORKSPACE = {
  id: 7,
  name: 'Campaigns',
  role: 'viewer',
  personal: false,
  require_2fa: false,
  timezone: 'Europe/Berlin',
  created_at: SPRING,
};

export const MEMBER = {
  user_id: 1,
  name: 'Campaigns',
  email: 'ada@example.com',
  role: 'viewer',
  two_factor: false,
  joined_at: SPRING,
};

export const CREATED_INVITATION = {
  id: 7,
  email: 'ada@example.com',
  role: 'viewer',
  created_at: SPRING,
  expires_at: SPRING,
  expired: false,
  token: 'lpx-verify-3f9a1c',
  accept_url: 'https://lpx.example/invitations/inv_2b7QmX9/accept',
  mailed: false,
};

export const INVITATION = {
  id: 7,
  email: 'ada@example.com',
  role: 'viewer',
  created_at: SPRING,
  expires_at: SPRING,
  expired: false,
};

export const ACCEPTED_INVITATION = {
  workspace_id: 1,
  role: 'viewer',
};

export const CREATED_WORKSPACE_KEY = {
  id: 7,
  name: 'Campaigns',
  prefix: 'lpx_4f2a',
  scopes: ['links:read'],
  expires_at: SPRING,
  created_at: SPRING,
  last_used_at: SPRING,
  revoked_at: SPRING,
  user: {
    id: 7,
    name: 'Campaigns',
    email: 'ada@example.com',
  },
  key: 'lpx_4f2a9c1e7b3d5a8f0e6c2b9d',
};

export const WORKSPACE_KEY = {
  id: 7,
  name: 'Campaigns',
  prefix: 'lpx_4f2a',
  scopes: ['links:read'],
  expires_at: SPRING,
  created_at: SPRING,
  last_used_at: SPRING,
  revoked_at: SPRING,
  user: {
    id: 7,
    name: 'Campaigns',
    email: 'ada@example.com',
  },
};

export const AUDIT_ENTRY = {
  id: 7,
  at: SPRING,
  actor: {
    user_id: 1,
    name: 'Campaigns',
  },
  key: {
    id: 7,
    name: 'Campaigns',
  },
  via: 'web',
  action: 'link.updated',
  target: {
    type: 'google-analytics',
    id: 7,
  },
  changes: {},
};

export const DOMAIN = {
  id: 7,
  name: 'Campaigns',
  index_page: 'https://brand.example/',
  not_found_page: 'https://brand.example/404',
  apple_app_site_association: {},
  assetlinks: [],
  created_at: SPRING,
  updated_at: SPRING,
  status: 'pending',
  verified_at: SPRING,
  verification: {
    token: 'lpx-verify-3f9a1c',
    txt_name: '_linkpix.go.brand.example',
    file_url: 'https://go.brand.example/.well-known/linkpix-verify.txt',
  },
};

export const STATS_ENTRY = {
  value: 'US',
  count: 42,
};

export const ACCOUNT = {
  id: 7,
  name: 'Campaigns',
  email: 'ada@example.com',
  timezone: 'Europe/Berlin',
  created_at: SPRING,
};

export const INTEGRATION = {
  id: 4,
  type: 'stripe',
  endpoint_url: 'https://lpx.example/api/integrations/int_3q9Zk2V7mXb1cR8wTn5yLd0sHe4aUfGj',
  created_at: SPRING,
};

export const WEBHOOK_DELIVERY = {
  id: 'dlv_8f2c1e7a9b3d4c5e',
  type: 'link.created',
  created_at: SPRING,
  data: { link: { id: 12, alias: 'spring', url: 'https://shop.example/spring-sale' } },
};
