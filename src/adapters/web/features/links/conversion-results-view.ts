// Results per rule and split variant as pages print them: the conversions page and the statistics
// overview share the table, so a rule, a variant and an amount read the same on both.
import type { ConversionSums, VariantResult } from '../../../../core/conversions/results.ts';
import type { Rule } from '../../../../core/rules/rule.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { numberFormat } from '../../i18n/intl-formats.ts';
import type { View } from '../../app/view.ts';
import { ruleLabel, variantLabel } from '../../ui/rule-numbering.ts';

type Viewer = Pick<View, 't' | 'fmt'>;

/** An amount in its currency ("€249.50"); a code Intl does not take is printed after the number. */
function money(locale: string, amount: number, currency: string): string {
  try {
    return numberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${numberFormat(locale, {}).format(amount)} ${currency}`;
  }
}

/** Sums per currency first, then what was sent without one (value less the currencies' sums). */
export function amountsOf(v: Viewer, s: Pick<ConversionSums, 'value' | 'values'>): string[] {
  const inCurrencies = Object.entries(s.values).sort(([a], [b]) => a.localeCompare(b));
  const rest = s.value - inCurrencies.reduce((sum, [, n]) => sum + n, 0);
  const out = inCurrencies.map(([code, n]) => money(v.fmt.locale, n, code));
  // Float sums leave crumbs: what is left of a cent's millionth is nothing.
  if (Math.abs(rest) > 1e-6) out.push(v.fmt.number(rest));
  return out;
}

/** "sale: 5 (€249.50, $10.00)" per conversion name; a dash without any. */
function conversionSums(v: Viewer, conversions: VariantResult['conversions']): RawHtml | string {
  const names = Object.entries(conversions);
  if (names.length === 0) return v.t.conversions.nothing;
  return html`<ul class="plain">${names.map(([name, s]) => {
    const money = amountsOf(v, s);
    return html`<li>${name}: ${v.fmt.number(s.count)}${money.length > 0 ? ` (${money.join(', ')})` : ''}</li>`;
  })}</ul>`;
}

/** Every row's conversions added up: their number and their amounts per currency. */
export function conversionTotals(rows: readonly VariantResult[]): ConversionSums & { clicks: number } {
  const total = { clicks: 0, count: 0, value: 0, values: {} as Record<string, number> };
  for (const r of rows) {
    total.clicks += r.clicks;
    for (const s of Object.values(r.conversions)) {
      total.count += s.count;
      total.value += s.value;
      for (const [code, n] of Object.entries(s.values)) total.values[code] = (total.values[code] ?? 0) + n;
    }
  }
  return total;
}

export interface ResultsTableOptions {
  rules: readonly Rule[];
  /** The destination column: the conversions page has it, the statistics overview links there. */
  destinations: boolean;
  /** A last column of per-row actions (choosing a winner), with its header. */
  action?: { header: string; cell: (r: VariantResult) => RawHtml | string };
}

const pValue = (p: number | null, none: string) => (p === null ? none : p < 0.001 ? '< 0.001' : p.toFixed(3));

/**
 * The table in its own scrolling box: it keeps a readable width on a phone rather than
 * squeezing a column to a letter a line, and a long destination is cut short, whole in its title.
 */
export function resultsTable(v: Viewer, rows: readonly VariantResult[], o: ResultsTableOptions): RawHtml {
  const t = v.t.conversions;
  const c = t.columns;
  const percent = numberFormat(v.fmt.locale, { style: 'percent', maximumFractionDigits: 2 });
  const ruleOf = (r: VariantResult) => ruleLabel(v.t.rules, r.rule, r.rule === null ? null : o.rules[r.rule]?.name);
  const destination = (r: VariantResult) =>
    r.url === null
      ? html`<td class="muted">${t.gone}</td>`
      : html`<td class="conversions-url"><span title="${r.url}">${r.url}</span></td>`;
  const body = rows.map(
    (r) =>
      html`<tr><th scope="row">${ruleOf(r)}</th><td>${r.variant === null ? t.nothing : variantLabel(v.t.rules, r.variant)}</td>${o.destinations ? destination(r) : ''}<td class="num">${v.fmt.number(r.clicks)}</td><td>${conversionSums(v, r.conversions)}</td><td class="num">${percent.format(r.rate)}</td><td class="num">${pValue(r.p_value, t.nothing)}</td>${o.action ? html`<td class="conversions-action">${o.action.cell(r)}</td>` : ''}</tr>`,
  );
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${t.caption}"><table class="conversions-table"><caption>${t.caption}</caption>
<thead><tr><th scope="col">${c.rule}</th><th scope="col">${c.variant}</th>${o.destinations ? html`<th scope="col">${c.url}</th>` : ''}<th scope="col" class="num">${c.clicks}</th><th scope="col">${c.conversions}</th><th scope="col" class="num">${c.rate}</th><th scope="col" class="num">${c.pValue}</th>${o.action ? html`<th scope="col">${o.action.header}</th>` : ''}</tr></thead>
<tbody>${body}</tbody></table></div>`;
}
