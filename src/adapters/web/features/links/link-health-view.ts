import type { LinkView } from '../../../../core/links/link.ts';
import { UNKNOWN_HEALTH } from '../../../../core/health/health.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { csrfField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { brokenBadge } from './link-health-badge.ts';

function time(view: View, ms: number): RawHtml {
  return html`<time datetime="${new Date(ms).toISOString()}">${view.fmt.dateTime(ms)}</time>`;
}

/** The link page's *Destination* panel: what the last check found, and *Check now* for those who may write links (docs/design/health.md). */
export function destinationPanel(view: View, item: LinkView): RawHtml {
  const t = view.t.linkForm.health;
  const health = item.health ?? UNKNOWN_HEALTH;
  const reason = brokenBadge(view, item);
  const checkNow = view.can('links.write')
    ? html`<form method="post" action="/links/${item.link.id}/check" class="actions">${csrfField(view)}<button type="submit">${t.checkNow}</button></form>`
    : '';
  return html`<section class="destination-health" aria-labelledby="destination-health-title">
<h2 id="destination-health-title">${t.title}</h2>
<dl class="link-facts">
<dt>${t.status}</dt><dd>${reason === '' ? t.statuses[health.status] : reason}</dd>
<dt>${t.lastChecked}</dt><dd>${health.checkedAt === null ? t.never : time(view, health.checkedAt)}</dd>
${health.brokenSince === null ? '' : html`<dt>${t.brokenSince}</dt><dd>${time(view, health.brokenSince)}</dd>`}
</dl>
${checkNow}
</section>`;
}
