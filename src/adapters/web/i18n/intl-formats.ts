import { LRUCache } from 'lru-cache';

// Languages are the catalogues' few and time zones the accounts' own, so a few hundred cover them all.
const MAX_FORMATS = 500;

/**
 * One Intl object per kind, locale and options, made once and used again: making one costs far
 * more than formatting with it, and a statistics page formats hundreds of rows (Intl formatters
 * hold no state between calls, so sharing them changes no output).
 */
function cachedBy<O extends object, T extends object>(
  make: (locale: string, options: O) => T,
): (locale: string, options: O) => T {
  const cache = new LRUCache<string, T>({ max: MAX_FORMATS });
  return (locale, options) => {
    const key = `${locale} ${JSON.stringify(options)}`;
    let made = cache.get(key);
    if (!made) {
      made = make(locale, options);
      cache.set(key, made);
    }
    return made;
  };
}

export const numberFormat = cachedBy(
  (locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options),
);
export const dateTimeFormat = cachedBy(
  (locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options),
);
export const displayNames = cachedBy(
  (locale, options: Intl.DisplayNamesOptions) => new Intl.DisplayNames(locale, options),
);

// Country and language names, and a few years of days in each format: tens of thousands at most.
const MAX_TEXTS = 20_000;
const texts = new LRUCache<string, string>({ max: MAX_TEXTS });

/**
 * The text `make` gives for a value (a region's name, a day in words), kept by what it is of: Intl
 * takes microseconds to name one, and a statistics page names hundreds, the same ones each time.
 * `of` must say everything the text depends on: the kind of text, the locale, its options.
 */
export function keptText(of: string, value: string, make: () => string): string {
  const key = `${of} ${value}`;
  let text = texts.get(key);
  if (text === undefined) {
    text = make();
    texts.set(key, text);
  }
  return text;
}
