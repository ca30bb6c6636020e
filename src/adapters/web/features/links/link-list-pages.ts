import type { FastifyReply, FastifyRequest } from 'fastify';
import { WebLinkListQuery } from '../../../shared/schemas/link.ts';
import { normalizeQuery } from '../../../shared/input/normalize-input.ts';
import { fieldErrorsOf } from '../../../shared/input/validation-errors.ts';
import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { CountRequest } from '../../../../core/shared/page.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { BulkActionBody, normalizeBulkBody, runBulkAction, type BulkPages } from './link-bulk-action.ts';
import { confirmDeleteMain, type BulkValues } from './link-bulk-view.ts';
import { filterChoices } from './link-list-options.ts';
import { filterOf, listQueryOf, pageOf, SEARCH_COUNT_BOUND, type ListQuery } from './link-list-query.ts';
import { listMain } from './link-list-view.ts';

interface Shown {
  status: number;
  query: ListQuery;
  /** false: the query was refused, no links are read. */
  read: boolean;
  queryErrors?: FieldErrors;
  bulkErrors?: FieldErrors;
  bulkValues?: BulkValues;
}

const countRequestOf = (query: ListQuery): CountRequest => (query.search ? { countUpTo: SEARCH_COUNT_BOUND } : {});

/** GET /links and POST /links/bulk-action (issue 16). */
export const linkListPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;

  async function showList(request: FastifyRequest, reply: FastifyReply, shown: Shown): Promise<FastifyReply> {
    const { workspace: account } = viewerOf(request);
    const [choices, page] = await Promise.all([
      filterChoices(ctx, account.id),
      shown.read
        ? ctx.links.list(account.id, filterOf(shown.query), pageOf(shown.query), countRequestOf(shown.query))
        : Promise.resolve(null),
    ]);
    // The page's trends in one read of the daily rollups, for the rows shown only.
    const clicks =
      page && page.items.length > 0
        ? await ctx.stats.linksClicks(
            account,
            page.items.map((i) => i.link.id),
          )
        : new Map();
    const view = viewOf(request, reply, secret);
    const main = listMain(view, { ...shown, page, clicks, choices, urls: ctx.urls, now: Date.now() });
    return sendView(reply, shown.status, appLayout(view, { title: view.t.links.title, main, section: '/links' }));
  }

  web.get(
    '/links',
    {
      schema: { querystring: WebLinkListQuery },
      attachValidation: true,
      // A GET form sends every field, blank ones too: blank means "not filtered", as in the API.
      preValidation: async (request) => {
        request.query = normalizeQuery(request.query);
      },
    },
    async (request, reply) => {
      const failure = request.validationError as (Error & { validation?: unknown }) | undefined;
      if (failure && Array.isArray(failure.validation)) {
        // The values as typed, to show them again; none of them is read from the database.
        const typed = listQueryOf(request.query as Partial<ListQuery>);
        return showList(request, reply, {
          status: 422,
          query: typed,
          read: false,
          queryErrors: fieldErrorsOf(failure.validation),
        });
      }
      return showList(request, reply, { status: 200, query: request.query as ListQuery, read: true });
    },
  );

  web.post(
    '/links/bulk-action',
    { schema: { body: BulkActionBody }, attachValidation: true, preValidation: normalizeBulkBody },
    async (request, reply) => {
      const pages: BulkPages = {
        view: () => viewOf(request, reply, secret),
        refuse: ({ query, values, errors }) =>
          showList(request, reply, { status: 422, query, read: true, bulkErrors: errors, bulkValues: values }),
        confirm: (query, scope, ids, count) => {
          const view = viewOf(request, reply, secret);
          const main = confirmDeleteMain(view, { query, scope, ids, count });
          return sendView(
            reply,
            200,
            appLayout(view, { title: view.t.links.list.bulk.confirmTitle, main, section: '/links' }),
          );
        },
      };
      return runBulkAction(request, reply, ctx, pages);
    },
  );
};
