import type { InventoryRow } from '../../../../core/privacy/privacy-report.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';
import { adminNav } from './admin-views.ts';

/** /admin/data: the inventory, one row a table. */
export function dataPage(view: View, rows: readonly InventoryRow[]): RawHtml {
  const d = view.t.admin.data;
  const body = rows.map(
    (r) =>
      html`<tr><th scope="row"><code>${r.table}</code></th><td>${r.subject === 'visitors' ? d.visitors : d.people}</td><td class="purpose">${r.purpose}</td><td class="num">${view.fmt.number(r.rows)}</td><td>${r.retention.text}</td></tr>`,
  );
  return html`<h1>${d.title}</h1>
${adminNav(view, '/admin/data')}
<p>${d.intro} <a href="/privacy">/privacy</a>.</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="${d.caption}"><table class="data-table">
<caption>${d.caption}</caption>
<thead><tr><th scope="col">${d.table}</th><th scope="col">${d.about}</th><th scope="col">${d.purpose}</th><th scope="col" class="num">${d.rows}</th><th scope="col">${d.retention}</th></tr></thead>
<tbody>${body}</tbody>
</table></div>
<p class="muted">${d.cli} <code>linkpix privacy report</code></p>`;
}
