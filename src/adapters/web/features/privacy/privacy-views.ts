import type { DescribedTable, VisitorNotice } from '../../../../core/privacy/privacy-report.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import type { View } from '../../app/view.ts';

function lifetime(view: View, seconds: number): string {
  const p = view.t.privacy;
  return seconds % 86_400 === 0 ? p.days(seconds / 86_400) : p.hours(Math.round(seconds / 3600));
}

function tableSection(view: View, table: DescribedTable): RawHtml {
  const p = view.t.privacy;
  const rows = table.columns.map((c) => html`<tr><th scope="row"><code>${c.name}</code></th><td>${c.holds}</td></tr>`);
  return html`<section class="privacy-table" aria-labelledby="table-${table.table}">
<h3 id="table-${table.table}"><code>${table.table}</code></h3>
<p>${table.purpose} <strong>${p.kept}: ${table.retention.text}.</strong></p>
<div class="table-wrap" tabindex="0" role="region" aria-label="${p.tableCaption(table.table)}"><table>
<caption>${p.tableCaption(table.table)}</caption>
<thead><tr><th scope="col">${p.column}</th><th scope="col">${p.holds}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
</section>`;
}

/** /privacy: the notice as the report gives it, nothing written by hand about what is stored. */
export function privacyPage(view: View, notice: VisitorNotice): RawHtml {
  const p = view.t.privacy;
  // A list, not a table: four columns of sentences do not fit a phone.
  const cookies = notice.cookies.map(
    (c) =>
      html`<dt><code>${c.name}</code></dt><dd>${c.purpose}<br><span class="muted">${p.cookieWhen}: ${c.when}. ${p.cookieLife}: ${lifetime(view, c.max_age_seconds)}.</span></dd>`,
  );
  return html`<h1>${p.title}</h1>
<p class="lead">${p.lead}</p>
<section aria-labelledby="not-stored">
<h2 id="not-stored">${p.notStoredTitle}</h2>
<ul>${notice.not_stored.map((n) => html`<li><strong>${n.what}</strong>: ${n.why}.</li>`)}</ul>
</section>
<section aria-labelledby="stored">
<h2 id="stored">${p.storedTitle}</h2>
${notice.tables.map((t) => tableSection(view, t))}
</section>
<section aria-labelledby="cookies">
<h2 id="cookies">${p.cookiesTitle}</h2>
<p>${p.cookiesIntro}</p>
<dl class="privacy-list">${cookies}</dl>
</section>
<section aria-labelledby="parameters">
<h2 id="parameters">${p.parametersTitle}</h2>
<dl class="privacy-list">${notice.parameters.map(
    (q) =>
      html`<dt><code>${q.name}</code></dt><dd>${q.purpose} (${q.valid_days === null ? p.validForever : p.validFor(p.days(q.valid_days))}).</dd>`,
  )}</dl>
</section>`;
}
