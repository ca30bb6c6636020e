/**
 * The link-preview fetchers a social card is made for (docs/design/social-cards.md): Slack,
 * X/Twitter, Facebook (and Apple's iMessage preview fetcher, which sends Facebook's and Twitter's
 * tokens with a Safari User-Agent), LinkedIn, Discord, WhatsApp and Telegram. Only asked for links
 * that have a card, so a visit of any other link pays nothing for it.
 */
const UNFURLER =
  /Slackbot-LinkExpanding|Twitterbot|facebookexternalhit|Facebot|LinkedInBot|Discordbot|WhatsApp\/|TelegramBot/i;

// The User-Agent is cut before it is tested, as describeUserAgent cuts it: a long header costs no more.
const MAX_UA_LENGTH = 500;

/** Whether the User-Agent is one of the unfurlers a link's card is shown to. */
export function isUnfurler(userAgent: string | undefined): boolean {
  if (userAgent === undefined || userAgent === '') return false;
  return UNFURLER.test(userAgent.length > MAX_UA_LENGTH ? userAgent.slice(0, MAX_UA_LENGTH) : userAgent);
}
