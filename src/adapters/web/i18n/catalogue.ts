import { en } from './en/index.ts';

/**
 * Every string a page shows comes from here. A new language is another object of this type
 * (the compiler lists what it lacks) added to CATALOGUES; the request's locale picks one.
 */
export type Catalogue = typeof en;

const CATALOGUES: Record<string, Catalogue> = { en };

const DEFAULT_LOCALE = 'en';

/** The first language of Accept-Language that has a catalogue, else English. */
export function localeFor(acceptLanguage: string | undefined): string {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    const language = tag.split('-')[0] ?? '';
    if (language in CATALOGUES) return language;
  }
  return DEFAULT_LOCALE;
}

export function catalogueFor(locale: string): Catalogue {
  return CATALOGUES[locale] ?? en;
}
