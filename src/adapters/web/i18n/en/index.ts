import { common } from './common.ts';
import { auth } from './auth.ts';
import { dashboard } from './dashboard.ts';
import { links } from './links.ts';
import { linkForm } from './link-form.ts';
import { bulk } from './bulk.ts';
import { imports } from './imports.ts';
import { pixels } from './pixels.ts';
import { spaces } from './spaces.ts';
import { domains } from './domains.ts';
import { resources } from './resources.ts';
import { account } from './account.ts';
import { admin } from './admin.ts';
import { stats } from './stats.ts';
import { home } from './home.ts';
import { tags } from './tags.ts';
import { utm } from './utm.ts';
import { security } from './security.ts';
import { rules } from './rules.ts';
import { conversions } from './conversions.ts';
import { history } from './history.ts';
import { workspaces } from './workspaces.ts';
import { audit } from './audit.ts';
import { integrations } from './integrations.ts';
import { webhooks } from './webhooks.ts';
import { privacy } from './privacy.ts';
import { analytics } from './analytics.ts';

/** English: the reference catalogue, one file per screen family. */
export const en = {
  common,
  auth,
  dashboard,
  links,
  linkForm,
  bulk,
  imports,
  pixels,
  spaces,
  domains,
  resources,
  account,
  admin,
  stats,
  home,
  tags,
  utm,
  security,
  rules,
  conversions,
  history,
  workspaces,
  audit,
  integrations,
  webhooks,
  privacy,
  analytics,
};
