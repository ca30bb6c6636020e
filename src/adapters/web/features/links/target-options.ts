import { COUNTRY_CODES } from '../../../../core/targeting/countries.ts';
import { LANGUAGE_CODES } from '../../../../core/targeting/languages.ts';
import { PLATFORMS } from '../../../../core/targeting/target.ts';
import type { SelectOption } from '../../ui/components.ts';
import type { KeyedListName } from './link-form-state.ts';

/** The keys each targeting list accepts, the core's own lists, named in the viewer's language. */
const cache = new Map<string, Record<KeyedListName, readonly SelectOption[]>>();

function named(codes: Iterable<string>, locale: string, type: 'region' | 'language'): SelectOption[] {
  const names = new Intl.DisplayNames([locale], { type, fallback: 'code' });
  const collator = new Intl.Collator(locale);
  return [...codes]
    .map((code) => ({ value: code, label: names.of(code) ?? code }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/** platformNames: what pages call a stored platform ("OS X" is shown as macOS; the value stays). */
export function targetOptions(
  locale: string,
  platformNames: Readonly<Record<string, string>> = {},
): Record<KeyedListName, readonly SelectOption[]> {
  let found = cache.get(locale);
  if (!found) {
    found = {
      country: named(COUNTRY_CODES, locale, 'region'),
      language: named(LANGUAGE_CODES, locale, 'language'),
      platform: PLATFORMS.map((p) => ({ value: p, label: platformNames[p] ?? p })),
    };
    cache.set(locale, found);
  }
  return found;
}
