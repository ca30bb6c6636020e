import type { Click } from '../../src/core/clicks/click.ts';

/** A human click of link 1 with nothing known about its visitor, and `fields` over that. */
export function aClick(fields: Partial<Click> = {}): Click {
  return {
    linkId: 1,
    accountId: 1,
    at: 0,
    day: '2026-11-23',
    hour: 0,
    visitor: null,
    country: null,
    city: null,
    browser: null,
    platform: null,
    device: null,
    language: null,
    referrerHost: null,
    isBot: false,
    ...fields,
  };
}
