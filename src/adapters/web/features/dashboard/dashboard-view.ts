import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { LinkView } from '../../../../core/links/link.ts';
import type { AccountClicks } from '../../../../core/stats/stats-service.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { renderTimeSeries } from '../../ui/charts/time-series.ts';
import { copyButton, csrfField, errorSummary, selectField, textField, type SelectOption } from '../../ui/components.ts';
import { textOf, type PostedForm } from '../../ui/posted-form.ts';
import type { View } from '../../app/view.ts';
import { liveClicks } from '../live/live-view.ts';
import { firstSteps, type FirstStepsPage } from './first-steps-view.ts';

/** A link as the dashboard lists it. */
export interface DashboardLink {
  id: number;
  shortUrl: string;
  url: string;
  title: string | null;
  clicks: number;
  createdAt: number;
}

export interface DashboardData {
  domains: SelectOption[];
  totalLinks: number;
  /** Links whose destination's last check found them broken (docs/design/health.md). */
  brokenLinks: number;
  clicks: AccountClicks;
  latest: DashboardLink[];
  top: DashboardLink[];
  /** The first-run checklist; null once dismissed or done, or for someone who makes no links. */
  firstSteps: FirstStepsPage | null;
}

export function dashboardLink(view: LinkView, shortUrl: string): DashboardLink {
  const { link } = view;
  return { id: link.id, shortUrl, url: link.url, title: link.title, clicks: link.clicks, createdAt: link.createdAt };
}

/**
 * The link just made, under the form: a read-only field to select (and, with the script, a Copy
 * button), so the next step is at hand, not at the top of the page. The redirect's fragment names
 * the field itself: a browser focuses a fragment's target, and a target that cannot take the focus
 * (the field's box) would take it away from the field.
 */
function quickResult(view: View, made: string): RawHtml {
  const d = view.t.dashboard;
  return html`<div class="field" id="quick-result">
<label for="quick-made">${d.madeLabel}</label>
<div class="toolbar"><input id="quick-made" class="mono" type="text" value="${made}" readonly autofocus data-focus-on-load spellcheck="false">
${copyButton(view, made, d.madeLabel)}</div>
</div>`;
}

function quickShorten(
  view: View,
  data: DashboardData,
  values: PostedForm,
  errors: FieldErrors | undefined,
  made: string | null,
): RawHtml {
  const d = view.t.dashboard;
  // A viewer of the workspace makes no links: no form that would only refuse.
  if (!view.can('links.write')) return html``;
  return html`<section aria-labelledby="quick-title">
<h2 id="quick-title">${d.quickTitle}</h2>
${errorSummary(view, errors)}
<form method="post" action="/dashboard/shorten" novalidate>
${csrfField(view)}
<div class="toolbar">
${textField({ name: 'url', label: d.url, type: 'url', value: textOf(values, 'url'), errors, required: true, inputmode: 'url', placeholder: 'https://' })}
${textField({ name: 'alias', label: d.alias, value: textOf(values, 'alias'), errors, hint: d.aliasHint, maxlength: 255 })}
${selectField({ name: 'domain', label: d.domain, options: data.domains, value: textOf(values, 'domain'), errors })}
<div class="actions"><button type="submit">${d.shorten}</button></div>
</div>
</form>
${made && !errors ? quickResult(view, made) : ''}
<p><a href="/links/new">${d.more}</a> · <a href="/links/bulk">${d.bulk}</a></p>
</section>`;
}

/** The links with a broken destination, a way to the list of them; none broken: no card. */
function brokenCard(view: View, broken: number): RawHtml | '' {
  if (broken === 0) return '';
  const d = view.t.dashboard;
  return html`<div class="card"><p class="muted"><a href="/links?health=broken">${d.brokenLinks}</a></p><p class="value">${view.fmt.number(broken)}</p></div>`;
}

function totals(view: View, data: DashboardData): RawHtml {
  const d = view.t.dashboard;
  const card = (label: string, value: number, live: RawHtml | '' = '') =>
    html`<div class="card"><p class="muted">${label}</p><p class="value"${live}>${view.fmt.number(value)}</p></div>`;
  return html`<section aria-labelledby="totals-title">
<h2 id="totals-title" class="visually-hidden">${d.totalsTitle}</h2>
<div class="cards">${card(d.totalLinks, data.totalLinks)}${card(d.clicks30, data.clicks.total, liveClicks(data.clicks.total))}${card(d.clicksToday, data.clicks.today, liveClicks(data.clicks.today))}${brokenCard(view, data.brokenLinks)}</div>
</section>`;
}

/** The 30 days as a bar chart with its summary and its data table (the table works without the SVG). */
function clicksChart(view: View, data: DashboardData): RawHtml {
  const d = view.t.dashboard;
  const { range, days } = data.clicks;
  // No clicks: a sentence, not an empty 280 px chart (the checklist says how to get the first).
  if (data.clicks.total === 0)
    return html`<section aria-labelledby="chart-title">
<h2 id="chart-title">${d.chartTitle}</h2>
<p class="empty-state">${d.noClicksChart}</p>
</section>`;
  const chart = renderTimeSeries({
    id: 'clicks-30-days',
    caption: d.chartCaption(view.fmt.day(range.from), view.fmt.day(range.to)),
    points: days.map((day) => ({ label: day.value ?? '', value: day.count })),
    unit: 'day',
    locale: view.fmt.locale,
    timeZone: view.fmt.timeZone,
    labels: {
      labelColumn: () => d.day,
      valueColumn: d.clicks,
      summary: (s) => d.chartSummary(s.total, s.totalText, s.range, s.peak),
    },
  });
  return html`<section aria-labelledby="chart-title">
<h2 id="chart-title">${d.chartTitle}</h2>
<div class="table-wrap">${chart}</div>
</section>`;
}

function linkTable(view: View, id: string, title: string, links: readonly DashboardLink[], empty: string): RawHtml {
  const d = view.t.dashboard;
  const rows = links.map(
    (l) => html`<tr>
<td><a href="${view.can('links.write') ? `/links/${l.id}/edit` : `/stats/${l.id}`}" class="url">${l.shortUrl}</a> ${copyButton(view, l.shortUrl)}</td>
<td>${l.title ? html`${l.title}<br>` : ''}<span class="url muted destination">${l.url}</span></td>
<td class="num" data-label="${d.clicks}"${liveClicks(l.clicks, l.id)}>${view.fmt.number(l.clicks)}</td>
<td class="date" data-label="${d.created_at}">${view.fmt.date(l.createdAt)}</td>
</tr>`,
  );
  return html`<section aria-labelledby="${id}">
<h2 id="${id}">${title}</h2>
${
  links.length === 0
    ? html`<p>${empty}</p>`
    : html`<div class="table-wrap"><table class="table-stack">
<thead><tr><th scope="col">${d.shortUrl}</th><th scope="col">${d.destination}</th><th scope="col" class="num">${d.clicks}</th><th scope="col">${d.created_at}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
</section>`;
}

export function dashboardMain(
  view: View,
  data: DashboardData,
  values: PostedForm = {},
  errors?: FieldErrors,
  made: string | null = null,
): RawHtml {
  const d = view.t.dashboard;
  return html`<h1>${d.title}</h1>
${data.firstSteps ? firstSteps(view, data.firstSteps) : ''}
${quickShorten(view, data, values, errors, made)}
${totals(view, data)}
<div id="dashboard-chart" data-live-refresh="chart" data-live-total="${data.clicks.total}">${clicksChart(view, data)}</div>
${linkTable(view, 'latest-title', d.latestTitle, data.latest, d.noLinks)}
<div id="dashboard-top" data-live-refresh="top" data-live-total="${data.clicks.total}">${linkTable(view, 'top-title', d.topTitle, data.top, d.noClicks)}</div>
<p><a href="/links">${d.allLinks}</a>${view.can('stats.read') ? html` · <a href="/dashboard/analytics">${view.t.analytics.link}</a>` : ''}</p>`;
}
