import type { SocialCard } from '../../../core/links/social-card.ts';
import { html } from '../../shared/html/html.ts';
import type { Page } from './layout.ts';

export interface SocialCardPageInput {
  card: SocialCard;
  /** The short URL the unfurler was asked to preview: og:url, so the card links back to it. */
  shortUrl: string;
}

// Nothing to run, load, post or frame: the page is its head's tags, and a line for a person.
const CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * What a link-preview fetcher (Slack, X, Facebook …) gets instead of the redirect
 * (docs/design/social-cards.md): the card as og: and twitter: tags. Every value goes through the
 * html tag's escaping, so a stored title cannot close an attribute or add a tag.
 */
export function renderSocialCard(input: SocialCardPageInput): Page {
  const { card, shortUrl } = input;
  const title = card.title ?? shortUrl;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<meta property="og:type" content="website">
<meta property="og:url" content="${shortUrl}">
<meta property="og:title" content="${title}">
${
  card.description !== null &&
  html`<meta property="og:description" content="${card.description}">
<meta name="description" content="${card.description}">`
}
${card.image !== null && html`<meta property="og:image" content="${card.image}">`}
<meta name="twitter:card" content="${card.image !== null ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${title}">
${card.description !== null && html`<meta name="twitter:description" content="${card.description}">`}
${card.image !== null && html`<meta name="twitter:image" content="${card.image}">`}
</head>
<body>
<h1>${title}</h1>
${card.description !== null && html`<p>${card.description}</p>`}
<p><a href="${shortUrl}">${shortUrl}</a></p>
</body>
</html>
`;
  return { html: page.value, csp: CSP };
}
