import { dateTimeFormat, numberFormat } from './intl-formats.ts';

/** Dates and numbers as the viewer reads them: their language, the account's time zone. */
export interface Formatter {
  locale: string;
  timeZone: string;
  number(n: number): string;
  date(ms: number): string;
  dateTime(ms: number): string;
  /** A calendar day given as YYYY-MM-DD (already in the account's time zone). */
  day(isoDay: string): string;
}

export function formatterFor(locale: string, timeZone: string): Formatter {
  const number = numberFormat(locale, {});
  const date = dateTimeFormat(locale, { timeZone, dateStyle: 'medium' });
  const dateTime = dateTimeFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  const day = dateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short' });
  return {
    locale,
    timeZone,
    number: (n) => number.format(n),
    date: (ms) => date.format(ms),
    dateTime: (ms) => dateTime.format(ms),
    day: (isoDay) => day.format(Date.parse(`${isoDay}T00:00:00Z`)),
  };
}
