import { FIRST_STEPS, type FirstStep, type FirstStepsChecklist } from '../../../../core/onboarding/first-steps.ts';
import type { Action } from '../../../../core/workspaces/policy.ts';
import { html, type RawHtml } from '../../../shared/html/html.ts';
import { csrfField } from '../../ui/components.ts';
import type { View } from '../../app/view.ts';
import { liveClicks } from '../live/live-view.ts';

/** What the checklist's steps point at in this workspace. */
export interface FirstStepsPage {
  checklist: FirstStepsChecklist;
  /** The latest link's short URL, to visit; null before the first link. */
  latestShortUrl: string | null;
  /** Clicks in the last 30 days: the live step's number, which live.js keeps current. */
  clicks: number;
  workspace: { id: number; personal: boolean };
}

/** What each step needs the person's role to allow, so no step ends on the 403 page. */
function stepAction(step: FirstStep, personal: boolean): Action {
  if (step === 'domain') return 'domains.write';
  if (step === 'key') return 'keys.own';
  if (step === 'invite') return personal ? 'workspace.create' : 'invitations.manage';
  return 'links.write';
}

/** The steps this viewer may take in this workspace. */
export function stepsFor(view: View, personal: boolean): FirstStep[] {
  return FIRST_STEPS.filter((step) => view.can(stepAction(step, personal)));
}

function stepText(view: View, p: FirstStepsPage, step: FirstStep): RawHtml {
  const t = view.t.dashboard.firstSteps;
  const invite = p.workspace.personal ? '/account/workspaces' : `/account/workspaces/${p.workspace.id}`;
  switch (step) {
    case 'shorten':
      return html`<a href="#f-url">${t.shorten}</a>`;
    case 'visit':
      return p.latestShortUrl === null
        ? html`${t.visit}`
        : html`<a href="${p.latestShortUrl}" target="_blank" rel="noopener">${t.visit}</a> <span class="hint">${t.visitHint}</span>`;
    case 'live':
      return html`${t.live} <span class="hint">${t.liveHint}</span> <strong${liveClicks(p.clicks)}>${view.fmt.number(p.clicks)}</strong>`;
    case 'domain':
      return html`<a href="/domains/new">${t.domain}</a>`;
    case 'key':
      return html`<a href="/account/api-keys">${t.key}</a>`;
    case 'invite':
      return html`<a href="${invite}">${t.invite}</a>${p.workspace.personal ? html` <span class="hint">${t.inviteHint}</span>` : ''}`;
  }
}

/**
 * The first-run checklist: each step ticked from the workspace's data, a "Dismiss" form (a post,
 * no script) that hides it for this person in this workspace.
 */
export function firstSteps(view: View, p: FirstStepsPage): RawHtml {
  const t = view.t.dashboard.firstSteps;
  const { steps } = p.checklist;
  const done = steps.filter((step) => p.checklist.done[step]).length;
  const items = steps.map((step) => {
    const ticked = p.checklist.done[step];
    return html`<li class="${ticked ? 'step done' : 'step'}" data-step="${step}"><span class="visually-hidden">${ticked ? t.doneLabel : t.todoLabel}</span>${stepText(view, p, step)}</li>`;
  });
  return html`<section class="first-steps" aria-labelledby="first-steps-title">
<h2 id="first-steps-title">${t.title}</h2>
<p class="hint">${t.progress(done, steps.length)}</p>
<ol class="first-steps-list">${items}</ol>
<form method="post" action="/dashboard/first-steps/dismiss">
${csrfField(view)}
<button type="submit" class="secondary small">${t.dismiss}</button>
</form>
</section>`;
}
