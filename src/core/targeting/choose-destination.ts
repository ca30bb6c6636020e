import type { Visitor } from '../redirect/visitor.ts';
import { compileTargeting } from '../rules/compile-targeting.ts';
import type { RuleFacts } from '../rules/rule-facts.ts';
import type { TargetType, Targets } from './target.ts';

export type Destination =
  | { kind: 'fixed'; url: string }
  /** Round-robin over these, in order; the counter must be atomic, so it lives with the caller. */
  | { kind: 'rotate'; entries: readonly string[] };

export interface TargetedLink {
  url: string;
  targetType: TargetType;
  targets: Targets;
}

/**
 * Where a link's targeting sends a visitor, for pages that show it without a visit (the link
 * form's preview): the redirect's own decider, compileTargeting's rules, compiled for the call.
 * Only the list named by targetType acts; no match means the link's url.
 */
export function chooseDestination(
  link: TargetedLink,
  visitor: Pick<Visitor, 'country' | 'platform' | 'languages'>,
): Destination {
  const facts: RuleFacts = {
    visitor: { ...visitor, browser: null, device: null, referrerHost: null },
    query: '',
    address: '',
    now: 0,
    clicks: 0,
    cookie: undefined,
  };
  // phpShort's lists never draw: no split is among them.
  const decision = compileTargeting(link.targetType, link.targets).decide(facts, Math.random);
  if (decision.rotation !== undefined) return { kind: 'rotate', entries: decision.rotation };
  return { kind: 'fixed', url: decision.url ?? link.url };
}
