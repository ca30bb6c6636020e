import type { FastifyReply, FastifyRequest } from 'fastify';
import { FieldErrorBag, NotFoundError, ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import type { PersonKeys } from '../../../../core/workspaces/workspace-keys-service.ts';
import type { WorkspaceOfUser } from '../../../../core/workspaces/workspace.ts';
import type { ApiKey } from '../../../../core/accounts/account.ts';
import { KEY_NAME_MAX, checkKeyName } from '../../../../core/accounts/account-rules.ts';
import { IdParams } from '../../../shared/schemas/common.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { copyButton, csrfField, errorSummary, postButton, selectField, textField } from '../../ui/components.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import { actorOf } from '../workspaces/workspace-actor.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';

/** Pages, not API: kept out of the OpenAPI document. */
const PAGE = { schema: { hide: true } };
import { text, type Form } from './account-views.ts';
import { workspaceName } from '../../ui/workspace-name.ts';

/** A key just made: its plaintext, shown in the answer to the form and never again. */
interface MadeKey {
  key: ApiKey;
  apiKey: string;
}

function keyStatus(view: View, key: ApiKey): RawHtml {
  const k = view.t.account.keys;
  if (key.revokedAt !== null)
    return html`<span class="status-disabled">${k.revokedOn(view.fmt.dateTime(key.revokedAt))}</span>`;
  if (key.expiresAt !== null)
    return html`<span class="status-active">${k.expiresOn(view.fmt.dateTime(key.expiresAt))}</span>`;
  return html`<span class="status-active">${k.live}</span>`;
}

function keyRow(view: View, workspace: WorkspaceOfUser, key: ApiKey): RawHtml {
  const k = view.t.account.keys;
  const name = key.name ?? key.prefix;
  return html`<tr>
<td>${name}</td>
<td data-label="${k.workspace}">${workspaceName(view, workspace)}</td>
<td class="mono" data-label="${k.prefix}">${key.prefix}…</td>
<td data-label="${k.scopes}">${key.scopes === null ? k.allScopes : key.scopes.join(', ')}</td>
<td class="date" data-label="${k.created}">${view.fmt.dateTime(key.createdAt)}</td>
<td data-label="${k.lastUsed}">${key.lastUsedAt === null ? k.never : view.fmt.dateTime(key.lastUsedAt)}</td>
<td data-label="${k.status}">${keyStatus(view, key)}</td>
<td>${key.revokedAt === null ? postButton(view, `/account/api-keys/${key.id}/revoke`, k.revoke, { danger: true, accessibleName: k.revokeNamed(name) }) : ''}</td>
</tr>`;
}

/**
 * The table's wrapper is a named, focusable region: on a narrow screen it scrolls sideways, and
 * when every key is revoked (no button left) a keyboard could not otherwise reach it to scroll.
 */
function keyTable(view: View, held: readonly PersonKeys[]): RawHtml {
  const k = view.t.account.keys;
  const rows = held.flatMap(({ workspace, keys }) => (keys ?? []).map(({ key }) => keyRow(view, workspace, key)));
  if (rows.length === 0) return html`<p class="muted">${k.none}</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${k.caption}"><table class="table-stack">
<caption class="visually-hidden">${k.caption}</caption>
<thead><tr><th scope="col">${k.name}</th><th scope="col">${k.workspace}</th><th scope="col">${k.prefix}</th><th scope="col">${k.scopes}</th><th scope="col">${k.created}</th><th scope="col">${k.lastUsed}</th><th scope="col">${k.status}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}

/** Where each workspace's keys are managed in full (scopes, expiry; an admin sees every member's). */
function workspaceLinks(view: View, held: readonly PersonKeys[]): RawHtml {
  const k = view.t.account.keys;
  return html`<ul>${held.map(
    ({ workspace, keys }) =>
      html`<li><a href="/account/workspaces/${workspace.id}#keys-title">${k.manageIn(workspaceName(view, workspace))}</a>${keys === null ? html` <span class="muted">${k.lockedIn}</span>` : ''}</li>`,
  )}</ul>`;
}

/** The new key in a read-only field (selectable with JavaScript off) and a copy button. */
function madeKey(view: View, made: MadeKey): RawHtml {
  const k = view.t.account.keys;
  return html`<section class="card" aria-labelledby="made-key-title">
<h2 id="made-key-title">${k.madeTitle}</h2>
<p id="made-key-warning"><strong>${k.madeWarning}</strong></p>
<div class="field">
<label for="made-key">${k.madeLabel(made.key.name ?? made.key.prefix)}</label>
<input id="made-key" class="mono" type="text" value="${made.apiKey}" readonly autocomplete="off" spellcheck="false" aria-describedby="made-key-warning">
</div>
<div class="actions">${copyButton(view, made.apiKey)}</div>
</section>`;
}

function keysPage(
  view: View,
  held: readonly PersonKeys[],
  made: MadeKey | null,
  values: Form,
  errors?: FieldErrors,
): RawHtml {
  const k = view.t.account.keys;
  const open = held
    .filter((p) => p.keys !== null)
    .map((p) => ({ value: String(p.workspace.id), label: workspaceName(view, p.workspace) }));
  const chosen = text(values, 'workspace') || String(view.workspace?.id ?? '');
  return html`<h1>${k.title}</h1>
<p><a href="/account">${k.back}</a></p>
${made ? madeKey(view, made) : ''}
<p>${k.intro}</p>
${keyTable(view, held)}
<section aria-labelledby="new-key-title">
<h2 id="new-key-title">${k.createTitle}</h2>
<p>${k.createHint}</p>
${errorSummary(view, errors)}
<form method="post" action="/account/api-keys" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'name', label: k.name, hint: k.nameHint, value: text(values, 'name'), errors, maxlength: KEY_NAME_MAX, required: true, autocomplete: 'off' })}
${open.length > 1 || errors?.workspace ? selectField({ name: 'workspace', label: k.workspace, hint: k.workspaceHint, options: open, value: chosen, errors }) : html`<input type="hidden" name="workspace" value="${open[0]?.value ?? chosen}">`}
<div class="actions"><button type="submit">${k.create}</button></div>
</form>
</section>
<section aria-labelledby="key-workspaces-title">
<h2 id="key-workspaces-title">${k.byWorkspaceTitle}</h2>
${workspaceLinks(view, held)}
</section>`;
}

/**
 * /account/api-keys: the person's own keys in every workspace they belong to (as a GitHub or
 * Bitly user finds their tokens in one place), create in any of them (the key shown once),
 * revoke; each workspace's page keeps the full form (scopes, expiry) and an admin's view of all.
 */
export const apiKeyPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;
  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    made: MadeKey | null,
    values: Form,
    errors?: FieldErrors,
  ) => {
    const held = await ctx.workspaceKeys.ofPerson(actorOf(request));
    const view = viewOf(request, reply, secret);
    return sendView(
      reply,
      status,
      appLayout(view, {
        title: view.t.account.keys.title,
        main: keysPage(view, held, made, values, errors),
        section: '/account',
      }),
    );
  };

  web.get('/account/api-keys', PAGE, async (request, reply) => show(request, reply, 200, null, {}));

  // Answered with the page itself rather than a 303: the key must never travel in a cookie
  // (the flash) or a URL. The page is no-store, like every page of the app.
  web.post('/account/api-keys', PAGE, async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    try {
      // No choice sent (a form of before the choice): the workspace the person works in.
      const workspaceId =
        text(form, 'workspace') === '' ? viewerOf(request).workspace.id : Number(text(form, 'workspace'));
      const open = (await ctx.workspaceKeys.ofPerson(actorOf(request)))
        .filter((p) => p.keys !== null)
        .map((p) => p.workspace.id);
      // Only a workspace of the list may be chosen: anything else is named on the form, never a 404.
      if (!open.includes(workspaceId)) {
        const bag = new FieldErrorBag();
        checkKeyName(text(form, 'name'), bag);
        bag.add('workspace', viewOf(request, reply, secret).t.account.keys.badWorkspace);
        bag.throwIfAny();
      }
      const made = await ctx.workspaceKeys.create(actorOf(request), workspaceId, { name: text(form, 'name') });
      return show(request, reply, 200, { key: made.key.key, apiKey: made.apiKey }, {});
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return show(request, reply, 422, null, form, error.fields);
    }
  });

  web.post('/account/api-keys/:id/revoke', { schema: { params: IdParams, hide: true } }, async (request, reply) => {
    const { id } = request.params as IdParams;
    const actor = actorOf(request);
    // The key's workspace is the one of the person's that holds it; a key of nobody's here is not found.
    const holder = (await ctx.workspaceKeys.ofPerson(actor)).find((p) => p.keys?.some(({ key }) => key.id === id));
    if (!holder) throw new NotFoundError('key');
    await ctx.workspaceKeys.revoke(actor, holder.workspace.id, id);
    setFlash(reply, viewOf(request, reply, secret).t.account.keys.revoked);
    return seeOther(reply, '/account/api-keys');
  });
};
