import type { VariantResult } from '../../../../core/conversions/results.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { numberFormat } from '../../i18n/intl-formats.ts';
import { amountsOf, conversionTotals, resultsTable } from '../links/conversion-results-view.ts';
import type { StatsFrame } from './stats-view.ts';

/**
 * The overview's conversions, for the owner: the period's clicks → conversions → value (a sum per
 * currency, never added across them), then the table per rule and variant the conversions page has.
 * Shown where the link tracks conversions or its clicks of the period still have some.
 */
export function conversionsSection(frame: StatsFrame, rows: readonly VariantResult[]): RawHtml | string {
  const { view, link } = frame;
  const t = view.t.stats.conversions;
  const total = conversionTotals(rows);
  if (link.trackConversions !== 1 && total.count === 0) return '';
  const n = (x: number) => view.fmt.number(x);
  const rate = rows.reduce((sum, r) => sum + r.rate * r.clicks, 0);
  const percent = numberFormat(view.fmt.locale, { style: 'percent', maximumFractionDigits: 1 });
  const amounts = amountsOf(view, total);
  return html`<section class="stats-conversions" aria-labelledby="stats-conversions-title">
<h2 id="stats-conversions-title">${t.title}</h2>
${link.trackConversions === 1 ? '' : html`<p class="hint">${t.off}</p>`}
<dl class="cards stats-cards">
<div class="card"><dt>${t.clicks}</dt><dd class="value" data-stat="conversion-clicks">${n(total.clicks)}</dd></div>
<div class="card"><dt>${t.count}</dt><dd class="value" data-stat="conversions">${n(total.count)}</dd><dd class="hint">${t.rate(percent.format(total.clicks > 0 ? rate / total.clicks : 0))}</dd></div>
<div class="card"><dt>${t.value}</dt>${
    amounts.length === 0
      ? html`<dd class="value" data-stat="conversion-value">—</dd><dd class="hint">${t.noValue}</dd>`
      : html`<dd><ul class="stats-conversions-amounts" data-stat="conversion-value">${amounts.map((a) => html`<li class="value">${a}</li>`)}</ul></dd>`
  }</div>
</dl>
<p class="hint">${t.note}${frame.filters.length > 0 ? html` ${t.unfiltered}` : ''}</p>
${resultsTable(view, rows, { rules: link.rules ?? [], destinations: false })}
<p><a href="/links/${link.id}/conversions">${t.all}</a></p>
</section>`;
}
