import type { LinkView } from '../../../../core/links/link.ts';
import type { RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { badge } from '../../ui/components.ts';

/** *Broken* with its reason, for a link whose destination's last check failed (docs/design/health.md). */
export function brokenBadge(view: View, item: LinkView): RawHtml | '' {
  const { health } = item;
  if (health?.status !== 'broken') return '';
  const t = view.t.links.list;
  const reason = health.reason === null ? '' : t.brokenReasons[health.reason](health.code);
  return badge(reason === '' ? t.broken : `${t.broken}: ${reason}`, 'danger');
}
