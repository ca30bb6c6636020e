import type { DeliveryEnvelope } from '../../core/webhooks/webhook-events.ts';
import type { WebhookEvent } from '../../core/webhooks/webhook.ts';

/** A Slack incoming-webhook message: `text` for notifications, `blocks` for the message itself. */
export interface SlackMessage {
  text: string;
  blocks: Array<
    | { type: 'section'; text: { type: 'mrkdwn'; text: string } }
    | { type: 'context'; elements: Array<{ type: 'mrkdwn'; text: string }> }
  >;
}

/** The parts of a delivery's link the messages use; a deleted link has only id and alias. */
interface LinkPart {
  alias?: string;
  url?: string;
  short_url?: string;
  health?: { code?: number | null; reason?: string | null };
}

// Slack reads &, < and > as markup (links, mentions); anything from a link is escaped.
const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** "(404)" for an answer's status, "(timeout)" for a failed request. */
function healthNote(link: LinkPart): string {
  const code = link.health?.code;
  const reason = link.health?.reason;
  if (typeof code === 'number') return ` (${code})`;
  return reason ? ` (${escape(reason)})` : '';
}

const LINE: Record<Exclude<WebhookEvent, 'link.clicked'>, (name: string, link: LinkPart) => string> = {
  'link.created': (name, link) => `🔗 Link ${name} created → ${escape(link.url ?? '')}`,
  'link.updated': (name, link) => `✏️ Link ${name} updated → ${escape(link.url ?? '')}`,
  'link.deleted': (name) => `🗑️ Link ${name} deleted`,
  'link.expired': (name) => `⌛ Link ${name} expired`,
  'link.broken': (name, link) => `⚠️ Link ${name} is broken${healthNote(link)}`,
  'link.recovered': (name, link) => `✅ Link ${name} works again${healthNote(link)}`,
};

function clickedLine(data: { clicks?: unknown[] }): string {
  const n = Array.isArray(data.clicks) ? data.clicks.length : 0;
  return `👆 ${n} ${n === 1 ? 'click' : 'clicks'} on your links`;
}

/** Workspace, the short link when there is one, and the time in the reader's own time zone (Slack's date token). */
function contextLine(envelope: DeliveryEnvelope, workspace: string, link: LinkPart | undefined): string {
  const at = Date.parse(envelope.created_at);
  const parts = [escape(workspace)];
  if (link?.short_url) parts.push(`<${escape(link.short_url)}|${escape(link.short_url)}>`);
  parts.push(`<!date^${Math.floor(at / 1000)}^{date_short_pretty} {time}|${envelope.created_at}>`);
  return parts.join(' · ');
}

/**
 * A delivery as a Slack message: one readable line for the event, then a context line. Pure, so
 * that it is tested without a receiver; the body is still signed like any other.
 */
export function slackMessage(envelope: DeliveryEnvelope, workspace: string): SlackMessage {
  const data = (envelope.data ?? {}) as { link?: LinkPart; clicks?: unknown[] };
  const link = data.link;
  const name = `*${escape(link?.alias ?? '?')}*`;
  const text = envelope.type === 'link.clicked' ? clickedLine(data) : LINE[envelope.type](name, link ?? {});
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: contextLine(envelope, workspace, link) }] },
    ],
  };
}
