import type { FieldErrors } from '../../../../core/shared/errors.ts';
import type { WorkspaceOfUser } from '../../../../core/workspaces/workspace.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { badge, csrfField, errorSummary, postButton, textField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { workspaceName } from '../../ui/workspace-name.ts';

export interface ListedWorkspace {
  workspace: WorkspaceOfUser;
  /** null: the workspace's two-factor rule stops this person reading its members. */
  members: number | null;
}

function row(view: View, listed: ListedWorkspace): RawHtml {
  const w = view.t.workspaces;
  const { workspace } = listed;
  const current = view.workspace?.id === workspace.id;
  return html`<tr>
<td><a href="/account/workspaces/${workspace.id}" aria-label="${w.openNamed(workspaceName(view, workspace))}">${workspaceName(view, workspace)}</a>${current ? html` ${badge(w.current)}` : ''}</td>
<td data-label="${w.role}">${w.roles[workspace.role]}</td>
<td data-label="${w.personal}">${workspace.personal ? view.t.common.yes : view.t.common.no}</td>
<td class="num" data-label="${w.members}">${listed.members ?? '—'}</td>
<td>${current ? '' : postButton(view, '/account/workspaces/switch', w.use, { hidden: { workspace: String(workspace.id), next: '/dashboard' }, accessibleName: w.useNamed(workspaceName(view, workspace)) })}</td>
</tr>`;
}

/** /account/workspaces: every workspace of the person, and a form to make one. */
export function workspaceListPage(
  view: View,
  listed: readonly ListedWorkspace[],
  values: { name: string },
  errors?: FieldErrors,
): RawHtml {
  const w = view.t.workspaces;
  return html`<h1>${w.title}</h1>
<p>${w.intro}</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="${w.caption}"><table class="table-stack">
<caption class="visually-hidden">${w.caption}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col">${w.role}</th><th scope="col">${w.personal}</th><th scope="col" class="num">${w.members}</th><th scope="col">${view.t.common.actions}</th></tr></thead>
<tbody>${listed.map((l) => row(view, l))}</tbody>
</table></div>
<section aria-labelledby="new-workspace-title">
<h2 id="new-workspace-title">${w.createTitle}</h2>
${errorSummary(view, errors)}
<form method="post" action="/account/workspaces" class="stack" novalidate>
${csrfField(view)}
${textField({ name: 'name', label: w.name, value: values.name, errors, maxlength: 255, required: true, autocomplete: 'off' })}
<div class="actions"><button type="submit">${view.t.common.create}</button></div>
</form>
</section>`;
}
