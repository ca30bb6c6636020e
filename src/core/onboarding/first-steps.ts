import type { Clock } from '../shared/clock.ts';

/** The first-run checklist's steps, in the order the dashboard lists them. */
export const FIRST_STEPS = ['shorten', 'visit', 'live', 'domain', 'key', 'invite'] as const;
export type FirstStep = (typeof FIRST_STEPS)[number];

/** What a workspace has, as far as the checklist asks: each "is there one?". */
export interface WorkspaceFacts {
  hasLinks: boolean;
  hasClicks: boolean;
  hasDomains: boolean;
  /** An API key of the workspace (not revoked). */
  hasKeys: boolean;
  /** Someone besides the person asking: another member, or an invitation still open. */
  hasOthers: boolean;
}

/** Where the facts are read and a person's dismissal kept (per person, per workspace). */
export interface FirstStepsStore {
  facts(workspaceId: number, userId: number, now: number): Promise<WorkspaceFacts>;
  dismissed(workspaceId: number, userId: number): Promise<boolean>;
  dismiss(workspaceId: number, userId: number, at: number): Promise<void>;
}

export interface FirstStepsChecklist {
  /** The steps listed, in order: those the person may take. */
  steps: readonly FirstStep[];
  done: Record<FirstStep, boolean>;
}

/**
 * Each step ticked from what the workspace has. Visiting the link and seeing its click arrive
 * live are one fact, a click: the second step says where to look while the first is done.
 */
export function stepsDone(facts: WorkspaceFacts): Record<FirstStep, boolean> {
  return {
    shorten: facts.hasLinks,
    visit: facts.hasClicks,
    live: facts.hasClicks,
    domain: facts.hasDomains,
    key: facts.hasKeys,
    invite: facts.hasOthers,
  };
}

/** The dashboard's first-run checklist (docs/design/web.md): gone once every step is done or once dismissed. */
export class FirstStepsService {
  constructor(
    private readonly store: FirstStepsStore,
    private readonly clock: Clock,
  ) {}

  /**
   * The checklist to show this person in this workspace, of the `steps` their role lets them take
   * (an editor adds no domain); null when dismissed or when each of those is done.
   */
  async checklist(
    workspaceId: number,
    userId: number,
    steps: readonly FirstStep[] = FIRST_STEPS,
  ): Promise<FirstStepsChecklist | null> {
    if (steps.length === 0 || (await this.store.dismissed(workspaceId, userId))) return null;
    const done = stepsDone(await this.store.facts(workspaceId, userId, this.clock.now()));
    const listed = FIRST_STEPS.filter((step) => steps.includes(step));
    return listed.every((step) => done[step]) ? null : { steps: listed, done };
  }

  /** Dismissed for good, for this person in this workspace only; again is a no-op. */
  async dismiss(workspaceId: number, userId: number): Promise<void> {
    await this.store.dismiss(workspaceId, userId, this.clock.now());
  }
}
