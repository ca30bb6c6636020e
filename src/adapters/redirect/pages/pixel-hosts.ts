import type { PixelType } from '../../../core/pixels/pixel.ts';
import type { CspSources } from './csp.ts';

/** Hosts a vendor's loader and library reach, per CSP directive. */
export interface PixelHosts {
  script: readonly string[];
  img: readonly string[];
  connect: readonly string[];
  frame: readonly string[];
}

// Taken from the vendors' CSP guidance where they publish one. Deliberately left out, so those
// features fail closed rather than widen the policy: google.<country> redirects of Google Ads,
// partner cookie-sync hosts that AdRoll chains to, Meta's form-POST fallback for oversized events
// (it needs form-action), and whatever other vendors a Google Tag Manager container adds.
export const PIXEL_HOSTS: Readonly<Record<PixelType, PixelHosts>> = {
  adroll: {
    script: ['https://s.adroll.com'],
    img: ['https://d.adroll.com'],
    connect: ['https://d.adroll.com'],
    frame: [],
  },
  bing: {
    script: ['https://bat.bing.com'],
    img: ['https://bat.bing.com'],
    connect: ['https://bat.bing.com'],
    frame: [],
  },
  facebook: {
    script: ['https://connect.facebook.net'],
    img: ['https://www.facebook.com'],
    connect: ['https://www.facebook.com'],
    frame: ['https://www.facebook.com'],
  },
  'google-ads': {
    script: [
      'https://www.googletagmanager.com',
      'https://www.googleadservices.com',
      'https://googleads.g.doubleclick.net',
      'https://www.google.com',
    ],
    img: ['https://www.googletagmanager.com', 'https://googleads.g.doubleclick.net', 'https://www.google.com'],
    connect: [
      'https://www.googletagmanager.com',
      'https://www.googleadservices.com',
      'https://googleads.g.doubleclick.net',
      'https://pagead2.googlesyndication.com',
      'https://www.google.com',
    ],
    frame: ['https://www.googletagmanager.com', 'https://td.doubleclick.net'],
  },
  'google-analytics': {
    script: ['https://*.googletagmanager.com'],
    img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
    connect: [
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://*.googletagmanager.com',
      'https://*.g.doubleclick.net',
      'https://www.google.com',
    ],
    frame: [],
  },
  'google-tag-manager': {
    script: ['https://www.googletagmanager.com'],
    img: ['https://www.googletagmanager.com'],
    connect: ['https://www.googletagmanager.com', 'https://www.google.com'],
    frame: ['https://www.googletagmanager.com'],
  },
  linkedin: {
    script: ['https://snap.licdn.com'],
    img: ['https://px.ads.linkedin.com', 'https://px4.ads.linkedin.com'],
    connect: ['https://px.ads.linkedin.com', 'https://px4.ads.linkedin.com'],
    frame: [],
  },
  pinterest: {
    script: ['https://s.pinimg.com'],
    img: ['https://ct.pinterest.com'],
    connect: ['https://ct.pinterest.com'],
    frame: ['https://ct.pinterest.com'],
  },
  quora: {
    script: ['https://a.quora.com'],
    img: ['https://q.quora.com'],
    connect: ['https://q.quora.com'],
    frame: [],
  },
  twitter: {
    script: ['https://static.ads-twitter.com'],
    img: [
      'https://t.co',
      'https://analytics.twitter.com',
      'https://ads-api.twitter.com',
      'https://static.ads-twitter.com',
    ],
    connect: ['https://analytics.twitter.com', 'https://ads-api.twitter.com', 'https://static.ads-twitter.com'],
    frame: [],
  },
};

/** Names shown to visitors on the consent page. */
export const PIXEL_VENDOR_NAMES: Readonly<Record<PixelType, string>> = {
  adroll: 'AdRoll',
  bing: 'Microsoft Advertising (Bing)',
  facebook: 'Meta (Facebook)',
  'google-ads': 'Google Ads',
  'google-analytics': 'Google Analytics',
  'google-tag-manager': 'Google Tag Manager',
  linkedin: 'LinkedIn',
  pinterest: 'Pinterest',
  quora: 'Quora',
  twitter: 'X (Twitter)',
};

/** The union of the hosts the given vendors need, for `buildCsp`. */
export function pixelCspSources(types: Iterable<PixelType>): Required<CspSources> {
  const out = {
    script: new Set<string>(),
    img: new Set<string>(),
    connect: new Set<string>(),
    frame: new Set<string>(),
  };
  for (const type of types) {
    const hosts = PIXEL_HOSTS[type];
    for (const key of ['script', 'img', 'connect', 'frame'] as const) hosts[key].forEach((h) => out[key].add(h));
  }
  return { script: [...out.script], img: [...out.img], connect: [...out.connect], frame: [...out.frame] };
}
