import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import { PER_PAGE } from '../../../../core/shared/page.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { normalizeBody, normalizeQuery } from '../../../shared/input/normalize-input.ts';
import { refuseInvalidBody } from '../../../shared/input/refuse-invalid-body.ts';
import { fieldErrorsOf } from '../../../shared/input/validation-errors.ts';
import type { RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import { deleteView, formView, listView } from './resource-views.ts';
import type { Form, NamedRecord, ResourceListQuery, ResourceSpec } from './resource-spec.ts';
import { webActor } from '../../app/audit-actor.ts';

/** What a feature may add to the shared screens (domains: the verify button's answer). */
export interface ResourcePages<T> {
  /** The edit page of `record`, with the form's values, its errors, and problems shown above it. */
  sendEdit(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    record: T,
    problems?: readonly string[],
  ): FastifyReply;
}

/** The form exactly as typed, before normalising and validating change it, to show it again. */
const typed = new WeakMap<FastifyRequest, Form>();

const idOf = (request: FastifyRequest): number => (request.params as IdParams).id;

/** The list query as validated, defaults filled in; or the fields the schema refused, each named. */
function listQueryOf<Q extends ResourceListQuery>(request: FastifyRequest): { query: Q; errors: FieldErrors | null } {
  const query = {
    sort: 'desc',
    page: 1,
    per_page: PER_PAGE.default,
    ...(request.query as Record<string, unknown>),
  } as Q;
  const failure = request.validationError as (Error & { validation?: unknown }) | undefined;
  const refused = failure && Array.isArray(failure.validation) ? fieldErrorsOf(failure.validation) : null;
  return { query, errors: refused };
}

/** Registers the list, new, edit and delete screens of one resource. */
export function resourcePages<T extends NamedRecord, F, I, Q extends ResourceListQuery>(
  web: FastifyInstance,
  ctx: WebContext,
  spec: ResourceSpec<T, F, I, Q>,
): ResourcePages<T> {
  const base = `/${spec.plural}`;
  const service = spec.service;
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    title: (view: View) => string,
    main: (view: View) => RawHtml,
  ) => {
    const view = viewOf(request, reply, ctx.web.csrfSecret);
    return sendView(reply, status, appLayout(view, { title: title(view), main: main(view), section: base }));
  };
  const sendForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    record: T | null,
    values: Form,
    errors?: FieldErrors,
    problems?: readonly string[],
  ) =>
    send(
      request,
      reply,
      status,
      (view) => (record ? spec.text(view).editTitle(record.name) : spec.text(view).newTitle),
      (view) => formView(view, spec, record, values, errors, problems),
    );

  // The API's input path: blank fields mean "clear" (or "not sent" for a blank choice), the
  // body schema with attachValidation, then refuseInvalidBody and the service's own rules.
  const form = (withId: boolean) => ({
    attachValidation: true,
    schema: withId ? { params: IdParams, body: spec.body } : { body: spec.body },
    preValidation: async (request: FastifyRequest) => {
      const raw = (request.body ?? {}) as Form;
      typed.set(request, { ...raw });
      const body = normalizeBody(raw) as Form;
      for (const name of spec.blankIsAbsent ?? []) if (body[name] === null) delete body[name];
      request.body = body;
    },
  });
  const byId = { schema: { params: IdParams } };

  /** Creates or updates from the posted form; a 422 page with every fault, nothing written, if it breaks a rule. */
  const save = async (request: FastifyRequest, reply: FastifyReply, current: T | null) => {
    const accountId = viewerOf(request).workspace.id;
    const id = current?.id;
    try {
      await refuseInvalidBody<I>(request, (rest) => service.faultsOf(accountId, rest, id));
      const input = request.body as I; // validated against the body schema
      const saved =
        id === undefined
          ? await service.create(accountId, input, webActor(request))
          : await service.update(accountId, id, input, webActor(request));
      const text = spec.text(viewOf(request, reply, ctx.web.csrfSecret));
      setFlash(reply, current ? text.updated(saved.name) : text.created(saved.name));
      return seeOther(reply, current === null && spec.afterCreate ? spec.afterCreate(saved) : base);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return sendForm(
        request,
        reply,
        422,
        current,
        typed.get(request) ?? {},
        spec.foldErrors ? spec.foldErrors(error.fields) : error.fields,
      );
    }
  };

  web.get(
    base,
    { attachValidation: true, schema: { querystring: spec.query }, preValidation: normalizeListQuery },
    async (request, reply) => {
      const { query: q, errors } = listQueryOf<Q>(request);
      // A refused query (a page of "Infinity", a size of 7) reads nothing: the list's form again, naming the field.
      const page = errors
        ? { items: [], total: 0, page: 1, perPage: PER_PAGE.default }
        : await service.list(viewerOf(request).workspace.id, spec.filterOf(q), { page: q.page, perPage: q.per_page });
      return send(
        request,
        reply,
        errors ? 422 : 200,
        (view) => spec.text(view).title,
        (view) => listView(view, spec, q, page, errors ?? undefined),
      );
    },
  );

  web.get(`${base}/new`, async (request, reply) => sendForm(request, reply, 200, null, spec.defaults));
  web.post(`${base}/new`, form(false), async (request, reply) => save(request, reply, null));

  web.get(`${base}/:id/edit`, byId, async (request, reply) => {
    const record = await service.get(viewerOf(request).workspace.id, idOf(request));
    return sendForm(request, reply, 200, record, spec.valuesOf(record));
  });
  web.post(`${base}/:id/edit`, form(true), async (request, reply) => {
    // A malformed id is a 404 as on GET; attachValidation would otherwise hand it to the handler.
    const failure = request.validationError as (Error & { validationContext?: string }) | undefined;
    if (failure?.validationContext === 'params') throw failure;
    return save(request, reply, await service.get(viewerOf(request).workspace.id, idOf(request)));
  });

  web.get(`${base}/:id/delete`, byId, async (request, reply) => {
    const record = await service.get(viewerOf(request).workspace.id, idOf(request));
    return send(
      request,
      reply,
      200,
      (view) => spec.text(view).deleteTitle(record.name),
      (view) => deleteView(view, spec, record),
    );
  });
  web.post(`${base}/:id/delete`, byId, async (request, reply) => {
    const accountId = viewerOf(request).workspace.id;
    const record = await service.get(accountId, idOf(request));
    await service.delete(accountId, record.id, webActor(request));
    setFlash(reply, spec.text(viewOf(request, reply, ctx.web.csrfSecret)).deleted(record.name));
    return seeOther(reply, base);
  });

  return {
    sendEdit: (request, reply, status, record, problems) =>
      sendForm(request, reply, status, record, spec.valuesOf(record), undefined, problems),
  };
}

async function normalizeListQuery(request: FastifyRequest): Promise<void> {
  request.query = normalizeQuery(request.query);
}
