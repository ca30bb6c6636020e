import type { Click } from '../clicks/click.ts';

/**
 * The `data` of each event's delivery (docs/api.md §14). The deliveries and the samples
 * (webhook-samples.ts) are both built here, so a sample cannot drift from what is sent.
 */

/** What a `link.clicked` delivery tells of one click. */
export interface ClickedItem {
  link_id: number;
  at: string;
  country: string | null;
  platform: string | null;
  browser: string | null;
  device: string | null;
  referrer: string | null;
  bot: boolean;
}

/** link.created, link.updated, link.expired, link.broken, link.recovered: the link as the API presents it. */
export const linkPayload = (record: unknown) => ({ link: record });

/** link.deleted: the record is gone, its id and alias are what a receiver can match. */
export const deletedLinkPayload = (link: { id: number; alias: string }) => ({
  link: { id: link.id, alias: link.alias },
});

/** link.clicked: the clicks of one second. */
export const clickedPayload = (clicks: ClickedItem[]) => ({ clicks });

export function clickedItem(click: Click): ClickedItem {
  return {
    link_id: click.linkId,
    at: new Date(click.at).toISOString(),
    country: click.country,
    platform: click.platform,
    browser: click.browser,
    device: click.device,
    referrer: click.referrerHost,
    bot: click.isBot,
  };
}
