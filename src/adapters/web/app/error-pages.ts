import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../../core/shared/errors.ts';
import { html } from '../../shared/html/html.ts';
import { appLayout } from '../ui/layout.ts';
import { sendView } from './respond.ts';
import { viewOf } from './view.ts';
import { workspaceName } from '../ui/workspace-name.ts';
import type { Workspace } from '../../../core/workspaces/workspace.ts';

type ErrorKind =
  'notFound' | 'forbidden' | 'gone' | 'badRequest' | 'invalid' | 'tooMany' | 'unavailable' | 'busy' | 'server';

const STATUS: Record<ErrorKind, number> = {
  notFound: 404,
  forbidden: 403,
  gone: 410,
  badRequest: 400,
  invalid: 422,
  tooMany: 429,
  unavailable: 503,
  busy: 503,
  server: 500,
};

/** An error as a page of the app, in the app's look, that says what happened and what to do. */
export function sendErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: ErrorKind,
  csrfSecret: string,
  options: {
    status?: number;
    retryAfterSeconds?: number;
    fields?: FieldErrors;
    /** A role refusal: what it needs, what the person has, where. */
    role?: { needed: string; have: string; workspace: Pick<Workspace, 'id' | 'name' | 'personal'> };
    /** A refusal the core worded (ForbiddenError's message). */
    body?: string;
  } = {},
): FastifyReply {
  const view = viewOf(request, reply, csrfSecret);
  const e = view.t.common.errors;
  const texts: Record<ErrorKind, { title: string; body: string }> = {
    notFound: { title: e.notFoundTitle, body: e.notFound },
    forbidden: options.role
      ? {
          title: e.roleTitle,
          body: e.role(options.role.needed, options.role.have, workspaceName(view, options.role.workspace)),
        }
      : { title: options.body ? e.roleTitle : e.forbiddenTitle, body: options.body ?? e.forbidden },
    gone: { title: view.t.workspaces.invitation.goneTitle, body: view.t.workspaces.invitation.gone },
    badRequest: { title: e.badRequestTitle, body: e.badRequest },
    invalid: { title: e.invalidTitle, body: e.invalid },
    tooMany: { title: e.tooManyTitle, body: e.tooManyAttempts(options.retryAfterSeconds ?? 60) },
    unavailable: { title: e.unavailableTitle, body: e.unavailable },
    busy: { title: e.busyTitle, body: e.busy },
    server: { title: e.serverTitle, body: e.server },
  };
  const { title, body } = texts[kind];
  if (kind === 'unavailable' || kind === 'busy') reply.header('retry-after', '5');
  if (kind === 'tooMany') reply.header('retry-after', String(options.retryAfterSeconds ?? 60));
  // A page of its own has no fields to link to: the messages, each naming its field, as a list.
  const fields = Object.values(options.fields ?? {}).flat();
  const list = fields.length > 0 ? html`<ul>${fields.map((message) => html`<li>${message}</li>`)}</ul>` : '';
  return sendView(
    reply,
    options.status ?? STATUS[kind],
    appLayout(view, { title, narrow: true, main: html`<h1>${title}</h1><p>${body}</p>${list}` }),
  );
}
