export const WEBHOOK = {
  id: 7,
  url: 'https://example.com/spring-sale',
  events: ['link.created'],
  enabled: false,
  disabled_at: '2026-03-02T10:15:00Z',
  failing_since: '2026-03-02T10:15:00Z',
  created_at: '2026-03-02T10:15:00Z',
};

export const CREATED_WEBHOOK = {
  id: 7,
  url: 'https://example.com/spring-sale',
  events: ['link.created'],
  enabled: false,
  disabled_at: '2026-03-02T10:15:00Z',
  failing_since: '2026-03-02T10:15:00Z',
  created_at: '2026-03-02T10:15:00Z',
  secret: 'text',
};

export const TAG = {
  id: 7,
  name: 'Spring',
  color: 'gray',
  links: 1,
  created_at: '2026-03-02T10:15:00Z',
  updated_at: '2026-03-02T10:15:00Z',
};

export const UTM_TEMPLATE = {
  id: 7,
  name: 'Spring',
  utm_source: 'text',
  utm_medium: 'text',
  utm_campaign: 'text',
  utm_term: 'text',
  utm_content: 'text',
  created_at: '2026-03-02T10:15:00Z',
  updated_at: '2026-03-02T10:15:00Z',
};

export const EXPLANATION = {
  outcome: 'redirect',
  url: 'https://example.com/spring-sale',
  rule: 1,
  variant: 1,
  trace: [
    {
      rule: 1,
      name: 'Spring',
      matched: false,
      conditions: [
        {
          condition: 'text',
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
  unknown: ['text'],
  days: 1,
  since: 'text',
};

export const LINK_VERSION = {
  version: 1,
  at: '2026-03-02T10:15:00Z',
  actor: {
    user_id: 1,
    name: 'Spring',
  },
  via: 'web',
  restored_from: 1,
  changes: {},
};

export const LINK = {
  id: 7,
  alias: 'spring',
  url: 'https://example.com/spring-sale',
  short_url: 'https://example.com/spring-sale',
  title: 'Spring sale',
  target_type: 1,
  country_target: [
    {
      key: 'text',
      value: 'abc123',
    },
  ],
  platform_target: [
    {
      key: 'text',
      value: 'abc123',
    },
  ],
  language_target: [
    {
      key: 'text',
      value: 'abc123',
    },
  ],
  rotation_target: [
    {
      value: 'abc123',
    },
  ],
  rules: [null],
  ios_url: 'https://example.com/spring-sale',
  android_url: 'https://example.com/spring-sale',
  track_conversions: 0,
  last_rotation: 1,
  disabled: 0,
  privacy: 0,
  privacy_password: false,
  password: false,
  expiration_url: 'https://example.com/spring-sale',
  expiration_clicks: 1,
  clicks: 1,
  space: {
    id: 7,
    name: 'Spring',
    color: 3,
    created_at: '2026-03-02T10:15:00Z',
    updated_at: '2026-03-02T10:15:00Z',
  },
  domain: {
    id: 7,
    name: 'Spring',
    index_page: 'text',
    not_found_page: 'text',
    apple_app_site_association: {},
    assetlinks: [null],
    created_at: '2026-03-02T10:15:00Z',
    updated_at: '2026-03-02T10:15:00Z',
    status: 'pending',
    verified_at: '2026-03-02T10:15:00Z',
    verification: {
      token: 'text',
      txt_name: 'text',
      file_url: 'https://example.com/spring-sale',
    },
  },
  pixels: [
    {
      id: 7,
      name: 'Spring',
      type: 'adroll',
      value: 'abc123',
      created_at: '2026-03-02T10:15:00Z',
      updated_at: '2026-03-02T10:15:00Z',
    },
  ],
  tags: ['text'],
  health: {
    status: 'ok',
    code: 1,
    reason: 'status',
    checked_at: '2026-03-02T10:15:00Z',
    broken_since: '2026-03-02T10:15:00Z',
  },
  ends_at: '2026-03-02T10:15:00Z',
  created_at: '2026-03-02T10:15:00Z',
  updated_at: '2026-03-02T10:15:00Z',
};

export const LINK_SCHEDULE = {
  id: 7,
  at: '2026-03-02T10:15:00Z',
  changes: {},
  status: 'pending',
  reason: 'text',
};

export const CONVERSION = {
  id: 7,
  link_id: 1,
  click_id: 'text',
  rule: 1,
  variant: 1,
  name: 'Spring',
  value: 1,
  currency: 'text',
  clicked_at: '2026-03-02T10:15:00Z',
  created_at: '2026-03-02T10:15:00Z',
};

export const WORKSPACE = {
  id: 7,
  name: 'Spring',
  role: 'viewer',
  personal: false,
  require_2fa: false,
  timezone: 'text',
  created_at: '2026-03-02T10:15:00Z',
};

export const MEMBER = {
  user_id: 1,
  name: 'Spring',
  email: 'ada@example.com',
  role: 'viewer',
  two_factor: false,
  joined_at: '2026-03-02T10:15:00Z',
};

export const CREATED_INVITATION = {
  id: 7,
  email: 'ada@example.com',
  role: 'viewer',
  created_at: '2026-03-02T10:15:00Z',
  expires_at: '2026-03-02T10:15:00Z',
  expired: false,
  token: 'text',
  accept_url: 'https://example.com/spring-sale',
  mailed: false,
};

export const INVITATION = {
  id: 7,
  email: 'ada@example.com',
  role: 'viewer',
  created_at: '2026-03-02T10:15:00Z',
  expires_at: '2026-03-02T10:15:00Z',
  expired: false,
};

export const ACCEPTED_INVITATION = {
  workspace_id: 1,
  role: 'viewer',
};

export const CREATED_WORKSPACE_KEY = {
  id: 7,
  name: 'Spring',
  prefix: 'text',
  scopes: ['links:read'],
  expires_at: '2026-03-02T10:15:00Z',
  created_at: '2026-03-02T10:15:00Z',
  last_used_at: '2026-03-02T10:15:00Z',
  revoked_at: '2026-03-02T10:15:00Z',
  user: {
    id: 7,
    name: 'Spring',
    email: 'ada@example.com',
  },
  key: 'text',
};

export const WORKSPACE_KEY = {
  id: 7,
  name: 'Spring',
  prefix: 'text',
  scopes: ['links:read'],
  expires_at: '2026-03-02T10:15:00Z',
  created_at: '2026-03-02T10:15:00Z',
  last_used_at: '2026-03-02T10:15:00Z',
  revoked_at: '2026-03-02T10:15:00Z',
  user: {
    id: 7,
    name: 'Spring',
    email: 'ada@example.com',
  },
};

export const AUDIT_ENTRY = {
  id: 7,
  at: '2026-03-02T10:15:00Z',
  actor: {
    user_id: 1,
    name: 'Spring',
  },
  key: {
    id: 7,
    name: 'Spring',
  },
  via: 'web',
  action: 'text',
  target: {
    type: 'google-analytics',
    id: 7,
  },
  changes: {},
};

export const PIXEL = {
  id: 7,
  name: 'Spring',
  type: 'adroll',
  value: 'abc123',
  created_at: '2026-03-02T10:15:00Z',
  updated_at: '2026-03-02T10:15:00Z',
};

export const SPACE = {
  id: 7,
  name: 'Spring',
  color: 3,
  created_at: '2026-03-02T10:15:00Z',
  updated_at: '2026-03-02T10:15:00Z',
};

export const DOMAIN = {
  id: 7,
  name: 'Spring',
  index_page: 'text',
  not_found_page: 'text',
  apple_app_site_association: {},
  assetlinks: [null],
  created_at: '2026-03-02T10:15:00Z',
  updated_at: '2026-03-02T10:15:00Z',
  status: 'pending',
  verified_at: '2026-03-02T10:15:00Z',
  verification: {
    token: 'text',
    txt_name: 'text',
    file_url: 'https://example.com/spring-sale',
  },
};

export const STATS_ENTRY = {
  value: 'US',
  count: 42,
};

export const ACCOUNT = {
  id: 7,
  name: 'Spring',
  email: 'ada@example.com',
  timezone: 'text',
  created_at: '2026-03-02T10:15:00Z',
};
