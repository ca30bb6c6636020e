import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkView } from '../../../../core/links/link.ts';
import { ValidationError } from '../../../../core/shared/errors.ts';
import type { VariantResult } from '../../../../core/conversions/results.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { appLayout } from '../../ui/layout.ts';
import { csrfField, errorSummary } from '../../ui/components.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import { webActor } from '../../app/audit-actor.ts';
import type { WebFeature } from '../feature.ts';
import { refuseBadParams } from './link-params.ts';
import { resultsTable } from './conversion-results-view.ts';
import { pageNumber } from '../../ui/rule-numbering.ts';

const numberOf = (source: unknown, name: string): number => {
  const value = source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : -1;
};

/**
 * /links/{id}/conversions: the link's results per rule and split variant (the API's
 * stats name=conversions), and a button per variant of a split to end it on that variant.
 */
export const linkConversionsPages: WebFeature = (web, ctx) => {
  const secret = ctx.web.csrfSecret;

  const render = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    view: LinkView,
    errors?: Record<string, string[]>,
  ) => {
    const v = viewOf(request, reply, secret);
    const url = shortUrl(view, ctx.urls);
    const rows = await ctx.conversions.results(viewerOf(request).workspace.id, view.link.id);
    const main = conversionsPage(v, view, url, rows, errors);
    return sendView(reply, status, appLayout(v, { title: v.t.conversions.pageTitle(url), section: '/links', main }));
  };

  web.get('/links/:id/conversions', { schema: { params: IdParams } }, async (request, reply) => {
    refuseBadParams(request);
    const { workspace } = viewerOf(request);
    return render(request, reply, 200, await ctx.links.get(workspace.id, (request.params as IdParams).id));
  });

  web.post('/links/:id/conversions/winner', { schema: { params: IdParams } }, async (request, reply) => {
    refuseBadParams(request);
    const { workspace } = viewerOf(request);
    const id = (request.params as IdParams).id;
    const link = await ctx.links.get(workspace.id, id);
    try {
      await ctx.conversions.chooseWinner(
        workspace,
        id,
        numberOf(request.body, 'rule'),
        numberOf(request.body, 'variant'),
        webActor(request),
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return render(request, reply, 422, link, error.fields);
    }
    setFlash(reply, viewOf(request, reply, secret).t.conversions.chosen);
    return seeOther(reply, `/links/${id}/conversions`);
  });
};

function conversionsPage(
  v: View,
  view: LinkView,
  url: string,
  rows: readonly VariantResult[],
  errors?: Record<string, string[]>,
): RawHtml {
  const t = v.t.conversions;
  const id = view.link.id;
  const rules = view.link.rules ?? [];
  // Choosing a winner rewrites the link's rules: a reader gets no column of forms that would refuse.
  const writes = v.can('links.write');
  const action = (r: VariantResult) =>
    r.rule !== null && r.variant !== null && rules[r.rule]?.split?.[r.variant] !== undefined
      ? html`<form method="post" action="/links/${id}/conversions/winner">${csrfField(v)}<input type="hidden" name="rule" value="${String(r.rule)}"><input type="hidden" name="variant" value="${String(r.variant)}"><button type="submit" class="secondary">${t.choose(pageNumber(r.variant))}</button></form>`
      : '';
  const table =
    rows.every((r) => r.clicks === 0 && Object.keys(r.conversions).length === 0) && rows.length <= 1
      ? html`<p class="muted">${t.none}</p>`
      : resultsTable(v, rows, {
          rules,
          destinations: true,
          ...(writes ? { action: { header: t.columns.action, cell: action } } : {}),
        });
  return html`<h1>${t.pageTitle(url)}</h1>
${errorSummary(v, errors)}
<p>${t.intro}</p>
${view.link.trackConversions === 1 ? '' : html`<p class="hint">${t.off}</p>`}
${table}
<p>${writes ? html`<a href="/links/${id}/edit">${t.editLink}</a> · ` : ''}<a href="/links/${id}/rules">${t.rulesLink}</a></p>`;
}
