import type {
  AccountSummary,
  InstanceTotals,
  OperatorLink,
  WorkspaceSummary,
} from '../../../../core/admin/admin-store.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { Page } from '../../../../core/shared/page.ts';
import { isExpired } from '../../../../core/expiration/expiry.ts';
import { emailFlags, revealHidden, type EmailFlag } from '../../../../core/accounts/email.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { csrfField, errorSummary, pagination, postButton, textField, withQuery } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { workspaceName } from '../../ui/workspace-name.ts';

/** What a list page was asked for: kept in its links and sent back by its forms (`next`). */
export interface ListQuery {
  q: string;
  page: number;
  perPage: number;
}

export function adminNav(view: View, current: string): RawHtml {
  const n = view.t.admin.nav;
  const item = (href: string, label: string) =>
    html`<li><a href="${href}"${href === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="${n.label}"><ul class="actions">${item('/admin', n.overview)}${item('/admin/accounts', n.accounts)}${item('/admin/workspaces', n.workspaces)}${item('/admin/links', n.links)}${item('/admin/data', n.data)}</ul></nav>`;
}

export function overviewPage(view: View, totals: InstanceTotals): RawHtml {
  const o = view.t.admin.overview;
  const card = (label: string, value: number) =>
    html`<div class="card"><p>${label}</p><p class="value">${view.fmt.number(value)}</p></div>`;
  return html`<h1>${o.title}</h1>
${adminNav(view, '/admin')}
<p>${o.intro}</p>
<div class="cards">${card(o.accounts, totals.accounts)}${card(o.links, totals.links)}${card(o.clicks, totals.clicks)}${card(o.recentClicks, totals.recentClicks)}</div>
<ul>
<li><a href="/admin/accounts">${o.manageAccounts}</a></li>
<li><a href="/admin/workspaces">${o.manageWorkspaces}</a></li>
<li><a href="/admin/links">${o.manageLinks}</a></li>
<li><a href="/admin/data">${o.reviewData}</a></li>
</ul>`;
}

function searchForm(action: string, label: string, button: string, query: ListQuery): RawHtml {
  return html`<form method="get" action="${action}" class="toolbar" role="search">
${textField({ name: 'q', label, type: 'search', value: query.q, maxlength: 255 })}
<div class="actions"><button type="submit">${button}</button></div>
</form>`;
}

function pager(view: View, path: string, page: Page<unknown>, query: ListQuery): RawHtml {
  const kept = { q: query.q, per_page: query.perPage === DEFAULT_PER_PAGE ? undefined : query.perPage };
  return pagination(view, {
    page: page.page,
    perPage: page.perPage,
    total: page.total,
    hrefFor: (n) => withQuery(path, kept, { page: n > 1 ? n : undefined }),
  });
}

export const DEFAULT_PER_PAGE = 25;

/** A badge per reason an email may pose as another's; its visible text is its accessible name too. */
function emailBadges(view: View, flags: readonly EmailFlag[]): RawHtml[] {
  const a = view.t.admin.accounts;
  return flags.map((flag) => {
    const text =
      flag.kind === 'hidden-characters'
        ? a.flagHidden
        : flag.kind === 'compatibility-forms'
          ? a.flagStyled
          : a.flagMixed(flag.part, flag.scripts);
    return html` <span class="flag" role="note" aria-label="${text}">${text}</span>`;
  });
}

export function accountsPage(view: View, page: Page<AccountSummary>, query: ListQuery, here: string): RawHtml {
  const a = view.t.admin.accounts;
  const self = view.account?.id;
  const rows = page.items.map(({ account, links }) => {
    // Hidden characters spelled out wherever the email is shown or named (an older account's).
    const email = revealHidden(account.email);
    const status =
      account.suspendedAt === null
        ? html`<span class="status-active">${a.active}</span>`
        : html`<span class="status-disabled">${a.suspendedSince(view.fmt.dateTime(account.suspendedAt))}</span>`;
    const actions =
      account.id === self
        ? html`<span class="muted">${a.you}</span>`
        : html`<div class="actions">${
            account.suspendedAt === null
              ? postButton(view, `/admin/accounts/${account.id}/suspend`, a.suspend, {
                  hidden: { next: here },
                  accessibleName: a.suspendName(email),
                  danger: true,
                })
              : postButton(view, `/admin/accounts/${account.id}/reinstate`, a.reinstate, {
                  hidden: { next: here },
                  accessibleName: a.reinstateName(email),
                })
          }<a href="/admin/accounts/${account.id}/delete" aria-label="${a.deleteName(email)}">${a.delete}</a></div>`;
    return html`<tr>
<td class="url">${email}${emailBadges(view, emailFlags(account.email))}</td>
<td>${account.name}</td>
<td class="num">${view.fmt.number(links)}</td>
<td class="date">${view.fmt.date(account.createdAt)}</td>
<td>${account.isAdmin ? a.operator : a.member}</td>
<td>${status}</td>
<td>${actions}</td>
</tr>`;
  });
  return html`<h1>${a.title}</h1>
${adminNav(view, '/admin/accounts')}
${searchForm('/admin/accounts', a.search, a.searchButton, query)}
${
  page.items.length === 0
    ? html`<p>${a.none}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${a.caption}"><table>
<caption>${a.caption}</caption>
<thead><tr><th scope="col">${a.email}</th><th scope="col">${a.name}</th><th scope="col" class="num">${a.links}</th><th scope="col">${a.created}</th><th scope="col">${a.role}</th><th scope="col">${a.status}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
${pager(view, '/admin/accounts', page, query)}`;
}

/** Every workspace: a team's is suspended here; a personal one with its account (Accounts). */
export function workspacesPage(view: View, page: Page<WorkspaceSummary>, query: ListQuery, here: string): RawHtml {
  const w = view.t.admin.workspaces;
  const rows = page.items.map((ws) => {
    const status =
      ws.suspendedAt === null
        ? html`<span class="status-active">${w.active}</span>`
        : html`<span class="status-disabled">${w.suspendedSince(view.fmt.dateTime(ws.suspendedAt))}</span>`;
    const action = ws.personal
      ? html`<a href="${withQuery('/admin/accounts', {}, { q: ws.email ?? '' })}">${w.withAccount}</a>`
      : ws.suspendedAt === null
        ? postButton(view, `/admin/workspaces/${ws.id}/suspend`, w.suspend, {
            hidden: { next: here },
            accessibleName: w.suspendName(ws.name),
            danger: true,
          })
        : postButton(view, `/admin/workspaces/${ws.id}/reinstate`, w.reinstate, {
            hidden: { next: here },
            accessibleName: w.reinstateName(ws.name),
          });
    return html`<tr>
<td>${workspaceName(view, ws)}</td>
<td>${ws.personal ? w.personal : w.team}</td>
<td class="num">${view.fmt.number(ws.members)}</td>
<td class="num">${view.fmt.number(ws.links)}</td>
<td class="date">${view.fmt.date(ws.createdAt)}</td>
<td>${status}</td>
<td>${action}</td>
</tr>`;
  });
  return html`<h1>${w.title}</h1>
${adminNav(view, '/admin/workspaces')}
${searchForm('/admin/workspaces', w.search, w.searchButton, query)}
${
  page.items.length === 0
    ? html`<p>${w.none}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${w.caption}"><table>
<caption>${w.caption}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col">${w.kind}</th><th scope="col" class="num">${w.members}</th><th scope="col" class="num">${w.links}</th><th scope="col">${w.created}</th><th scope="col">${w.status}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
${pager(view, '/admin/workspaces', page, query)}`;
}

export function linksPage(
  view: View,
  page: Page<OperatorLink>,
  query: ListQuery,
  here: string,
  shortUrlOf: (l: OperatorLink) => string,
  now: number,
): RawHtml {
  const t = view.t.admin.links;
  const rows = page.items.map((item) => {
    const { link, owner } = item;
    const short = shortUrlOf(item);
    const status = link.disabled
      ? html`<span class="status-disabled">${t.disabled}</span>`
      : isExpired(link, now)
        ? html`<span class="status-expired">${t.expired}</span>`
        : html`<span class="status-active">${t.active}</span>`;
    const action = link.disabled
      ? postButton(view, `/admin/links/${link.id}/enable`, t.enable, {
          hidden: { next: here },
          accessibleName: t.enableName(short),
        })
      : postButton(view, `/admin/links/${link.id}/disable`, t.disable, {
          danger: true,
          hidden: { next: here },
          accessibleName: t.disableName(short),
        });
    return html`<tr>
<td class="url">${short}</td>
<td class="url">${link.url}</td>
<td>${link.title ?? ''}</td>
<td class="url">${owner.email}${owner.suspended ? html` <span class="status-disabled">(${t.ownerSuspended})</span>` : ''}</td>
<td class="num">${view.fmt.number(link.clicks)}</td>
<td>${status}</td>
<td class="date">${view.fmt.date(link.createdAt)}</td>
<td>${action}</td>
</tr>`;
  });
  return html`<h1>${t.title}</h1>
${adminNav(view, '/admin/links')}
${searchForm('/admin/links', t.search, t.searchButton, query)}
${
  page.items.length === 0
    ? html`<p>${t.none}</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="${t.caption}"><table>
<caption>${t.caption}</caption>
<thead><tr><th scope="col">${t.shortUrl}</th><th scope="col">${t.destination}</th><th scope="col">${t.linkTitle}</th><th scope="col">${t.owner}</th><th scope="col" class="num">${t.clicks}</th><th scope="col">${t.status}</th><th scope="col">${t.created}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
${pager(view, '/admin/links', page, query)}`;
}

export function deletePage(view: View, summary: AccountSummary, typed: string, errors?: FieldErrors): RawHtml {
  const r = view.t.admin.remove;
  const { account, links } = summary;
  const self = view.account?.id === account.id;
  return html`<h1>${r.title}</h1>
${adminNav(view, '/admin/accounts')}
${errorSummary(view, errors)}
<p>${r.warning(revealHidden(account.email), view.fmt.number(links), links)}</p>
${
  self
    ? html`<p>${r.self}</p>`
    : html`<form method="post" action="/admin/accounts/${account.id}/delete" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'email', label: r.confirm, type: 'email', value: typed, errors, autocomplete: 'off', required: true })}
<div class="actions"><button type="submit" class="danger">${r.button}</button><a href="/admin/accounts">${view.t.common.cancel}</a></div>
</form>`
}`;
}

/** An operator's action refused by a rule (their own account): the reason, and the way back. */
export function refusedPage(view: View, message: string): RawHtml {
  const a = view.t.admin.accounts;
  return html`<h1>${a.refusedTitle}</h1>
<div class="error-summary" role="alert" aria-labelledby="refused-title" tabindex="-1" autofocus>
<h2 id="refused-title">${view.t.common.errorSummaryTitle}</h2>
<p>${message}</p>
</div>
<p><a href="/admin/accounts">${a.back}</a></p>`;
}
