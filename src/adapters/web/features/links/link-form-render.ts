import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkView } from '../../../../core/links/link.ts';
import { shortUrl } from '../../../shared/presenters/link-record.ts';
import { appLayout } from '../../ui/layout.ts';
import { sendView } from '../../app/respond.ts';
import { viewOf, viewerOf } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { linkChoices } from './link-choices.ts';
import { linkForm, type LinkFormPage } from './link-form-view.ts';
import { previewCardFor } from './link-preview-pages.ts';
import { utmBuilderState, type PostedUtm } from '../utm/utm-builder-state.ts';

/** The form page as its routes give it: what was typed and said; the page reads its choices, preview and UTM builder. */
export type Page = Omit<LinkFormPage, 'choices' | 'preview' | 'utm'>;
export type Existing = NonNullable<LinkFormPage['existing']>;

/** The form page, new or edit: its choices, preview card and UTM builder read for the values shown. */
export async function renderLinkForm(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: WebContext,
  status: number,
  page: Page,
  posted: PostedUtm | null = null,
) {
  const view = viewOf(request, reply, ctx.web.csrfSecret);
  // A form posted without a privacy left it as it was: the link's, or a new link's default.
  if (page.values.privacy === '')
    page = {
      ...page,
      values: { ...page.values, privacy: String(page.existing?.view.link.privacy ?? ctx.links.defaultPrivacy) },
    };
  const accountId = viewerOf(request).workspace.id;
  const choices = await linkChoices(ctx, accountId);
  const preview = await previewCardFor(ctx, request, page.values, page.existing?.view);
  const utm = await utmBuilderState(posted, ctx.utmTemplates, accountId, page.values.url);
  const title = page.existing ? view.t.linkForm.editTitle : view.t.linkForm.newTitle;
  return sendView(
    reply,
    status,
    appLayout(view, { title, section: '/links', main: linkForm(view, { ...page, choices, preview, utm }) }),
  );
}

export const existingOf = (ctx: WebContext, view: LinkView): Existing => ({ view, shortUrl: shortUrl(view, ctx.urls) });
