import type { Workspace } from '../../../core/workspaces/workspace.ts';
import type { View } from '../app/view.ts';

/**
 * One name for a workspace on every page. A personal workspace's stored name is its person's
 * (it is their `accounts` row), so to that person it reads "Personal", as the switcher says;
 * anyone else who sees it (an operator's list) reads the stored name. The API keeps the stored
 * name: its records are not the pages' words.
 */
export function workspaceName(
  view: Pick<View, 't' | 'account'>,
  workspace: Pick<Workspace, 'id' | 'name' | 'personal'>,
): string {
  return workspace.personal && workspace.id === view.account?.id ? view.t.common.nav.personalWorkspace : workspace.name;
}
