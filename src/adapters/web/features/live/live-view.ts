import { html, type RawHtml } from '../../../shared/html/html.ts';

/**
 * The attributes of an element showing a live total of clicks (live.js adds each click as it
 * happens): the account's total, or one link's when `linkId` is given. `value` is the number as
 * rendered, which the script counts on from.
 */
export function liveClicks(value: number, linkId?: number): RawHtml {
  return linkId === undefined
    ? html` data-metric="clicks" data-value="${value}"`
    : html` data-metric="clicks" data-value="${value}" data-link-id="${linkId}"`;
}
