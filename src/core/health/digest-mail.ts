import type { MailMessage } from '../mail/mailer.ts';
import type { BrokenLinkLine, DigestRecipient, DigestWorkspace } from './digest-ports.ts';

/** Where a digest's links point: the app's pages, and how a link's short URL reads. */
export interface DigestUrls {
  appUrl: string;
  /** The scheme of a custom domain's short links (DOMAIN_SCHEME). */
  domainScheme: string;
}

export interface DigestContent {
  workspace: DigestWorkspace;
  recipient: DigestRecipient;
  links: readonly BrokenLinkLine[];
  /** More links broke than the mail lists: the broken filter shows them all. */
  more: boolean;
}

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function shortUrlOf(link: BrokenLinkLine, urls: DigestUrls): string {
  const base = link.domain === null ? urls.appUrl.replace(/\/$/, '') : `${urls.domainScheme}://${link.domain}`;
  return `${base}/${link.alias}`;
}

/** "HTTP 404", or how the request failed. */
function why(link: BrokenLinkLine): string {
  if (link.code !== null && link.reason === 'status') return `HTTP ${link.code}`;
  const reasons: Record<string, string> = {
    timeout: 'no answer in time',
    dns: 'its host name does not resolve',
    connect: 'the connection failed',
    tls: 'the TLS handshake failed',
    redirects: 'too many redirects, or a loop',
  };
  return (link.reason && reasons[link.reason]) ?? (link.code !== null ? `HTTP ${link.code}` : 'broken');
}

/**
 * The daily mail of a workspace's newly broken links (docs/design/health.md): each link's short
 * URL, destination and what its check found, with its page; then the list of every broken
 * link. Plain text, and the same as simple HTML.
 */
export function digestMail(content: DigestContent, urls: DigestUrls): MailMessage {
  const app = urls.appUrl.replace(/\/$/, '');
  const { workspace, recipient, links, more } = content;
  const filter = `${app}/links?health=broken`;
  const count = links.length === 1 ? '1 link' : `${links.length}${more ? '+' : ''} links`;
  const intro = `${count} of the workspace "${workspace.name}" stopped reaching ${links.length === 1 ? 'its destination' : 'their destinations'} since the last digest.`;
  const switchNote = `Links of a team workspace open once it is the workspace you are in (the switcher at the top of the page).`;
  const optOut = `You get this mail as an admin of the workspace. To stop it: ${app}/account#notifications-title`;
  const text = [
    `Hello ${recipient.name},`,
    '',
    intro,
    '',
    ...links.flatMap((l) => [
      `- ${shortUrlOf(l, urls)} → ${l.url}`,
      `  ${why(l)}, since ${new Date(l.brokenSince).toISOString()}`,
      `  ${app}/links/${l.linkId}`,
    ]),
    '',
    `Every broken link: ${filter}`,
    switchNote,
    '',
    optOut,
  ].join('\n');
  const items = links
    .map(
      (l) =>
        `<li><a href="${escape(`${app}/links/${l.linkId}`)}">${escape(shortUrlOf(l, urls))}</a> → ${escape(l.url)}<br>` +
        `${escape(why(l))}, since ${escape(new Date(l.brokenSince).toISOString())}</li>`,
    )
    .join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<p>Hello ${escape(recipient.name)},</p>`,
    `<p>${escape(intro)}</p>`,
    `<ul>\n${items}\n</ul>`,
    `<p><a href="${escape(filter)}">Every broken link</a></p>`,
    `<p>${escape(switchNote)}</p>`,
    `<p><small>You get this mail as an admin of the workspace. <a href="${escape(`${app}/account#notifications-title`)}">Turn it off</a>.</small></p>`,
    '</body></html>',
  ].join('\n');
  return { to: recipient.email, subject: `linkpix: ${count} newly broken in ${workspace.name}`, text, html };
}
