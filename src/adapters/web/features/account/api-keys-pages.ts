import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError, type FieldErrors } from '../../../../core/shared/errors.ts';
import type { ApiKey } from '../../../../core/accounts/account.ts';
import { KEY_NAME_MAX } from '../../../../core/accounts/account-rules.ts';
import { IdParams } from '../../../http/schemas/common.ts';
import { html, type RawHtml } from '../../pages/html.ts';
import { appLayout } from '../../ui/layout.ts';
import { copyButton, csrfField, errorSummary, postButton, textField } from '../../ui/components.ts';
import { seeOther, sendView } from '../../app/respond.ts';
import { setFlash, viewOf, viewerOf, type View } from '../../app/view.ts';
import type { WebContext } from '../../app/web-context.ts';
import type { WebFeature } from '../feature.ts';
import { webActor } from '../../app/audit-actor.ts';

/** Pages, not API: kept out of the OpenAPI document. */
const PAGE = { schema: { hide: true } };
import { text, type Form } from './account-views.ts';

/** A key just made: its plaintext, shown in the answer to the form and never again. */
interface MadeKey {
  key: ApiKey;
  apiKey: string;
}

function keyRow(view: View, key: ApiKey): RawHtml {
  const k = view.t.account.keys;
  const name = key.name ?? key.prefix;
  return html`<tr>
<td>${name}</td>
<td class="mono">${key.prefix}…</td>
<td class="date">${view.fmt.dateTime(key.createdAt)}</td>
<td>${key.lastUsedAt === null ? k.never : view.fmt.dateTime(key.lastUsedAt)}</td>
<td>${key.revokedAt === null ? html`<span class="status-active">${k.live}</span>` : html`<span class="status-disabled">${k.revokedOn(view.fmt.dateTime(key.revokedAt))}</span>`}</td>
<td>${key.revokedAt === null ? postButton(view, `/account/api-keys/${key.id}/revoke`, k.revoke, { danger: true, accessibleName: k.revokeNamed(name) }) : ''}</td>
</tr>`;
}

/**
 * The table's wrapper is a named, focusable region: on a narrow screen it scrolls sideways, and
 * when every key is revoked (no button left) a keyboard could not otherwise reach it to scroll.
 */
function keyTable(view: View, keys: readonly ApiKey[]): RawHtml {
  const k = view.t.account.keys;
  if (keys.length === 0) return html`<p class="muted">${k.none}</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${k.caption}"><table>
<caption class="visually-hidden">${k.caption}</caption>
<thead><tr><th scope="col">${k.name}</th><th scope="col">${k.prefix}</th><th scope="col">${k.created}</th><th scope="col">${k.lastUsed}</th><th scope="col">${k.status}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${keys.map((key) => keyRow(view, key))}</tbody>
</table></div>`;
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

function keysPage(view: View, keys: readonly ApiKey[], made: MadeKey | null, values: Form, errors?: FieldErrors): RawHtml {
  const k = view.t.account.keys;
  return html`<h1>${k.title}</h1>
<p><a href="/account">${k.back}</a></p>
${made ? madeKey(view, made) : ''}
<p>${k.intro}</p>
${keyTable(view, keys)}
<section aria-labelledby="new-key-title">
<h2 id="new-key-title">${k.createTitle}</h2>
${errorSummary(view, errors)}
<form method="post" action="/account/api-keys" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'name', label: k.name, hint: k.nameHint, value: text(values, 'name'), errors, maxlength: KEY_NAME_MAX, required: true, autocomplete: 'off' })}
<div class="actions"><button type="submit">${k.create}</button></div>
</form>
</section>`;
}

/** /account/api-keys: list, create (the key shown once), revoke. */
export const apiKeyPages: WebFeature = (web, ctx: WebContext) => {
  const secret = ctx.web.csrfSecret;
  const show = async (request: FastifyRequest, reply: FastifyReply, status: number, made: MadeKey | null, values: Form, errors?: FieldErrors) => {
    const keys = await ctx.accounts.listKeysOf(viewerOf(request).account.id);
    const view = viewOf(request, reply, secret);
    return sendView(reply, status, appLayout(view, { title: view.t.account.keys.title, main: keysPage(view, keys, made, values, errors), section: '/account' }));
  };

  web.get('/account/api-keys', PAGE, async (request, reply) => show(request, reply, 200, null, {}));

  // Answered with the page itself rather than a 303: the key must never travel in a cookie
  // (the flash) or a URL. The page is no-store, like every page of the app.
  web.post('/account/api-keys', PAGE, async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    try {
      const made = await ctx.accounts.createKeyFor(viewerOf(request).account.id, text(form, 'name'), webActor(request));
      return show(request, reply, 200, made, {});
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return show(request, reply, 422, null, form, error.fields);
    }
  });

  web.post('/account/api-keys/:id/revoke', { schema: { params: IdParams, hide: true } }, async (request, reply) => {
    const { id } = request.params as IdParams;
    await ctx.accounts.revokeKeyOf(viewerOf(request).account.id, id, webActor(request));
    setFlash(reply, viewOf(request, reply, secret).t.account.keys.revoked);
    return seeOther(reply, '/account/api-keys');
  });
};
