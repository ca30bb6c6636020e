/**
 * A `decision` rollup's value: the deciding rule's index, and `.variant` for a split
 * (docs/design/rules.md). Text, as every rollup value; read back by parseDecision.
 */
export function decisionValue(rule: number, variant: number | null): string {
  return variant === null ? String(rule) : `${rule}.${variant}`;
}

/** The rule and variant of a decision value, or null for one that is not (never written). */
export function parseDecision(value: string): { rule: number; variant: number | null } | null {
  const m = /^(\d{1,3})(?:\.(\d{1,3}))?$/.exec(value);
  return m ? { rule: Number(m[1]), variant: m[2] === undefined ? null : Number(m[2]) } : null;
}
