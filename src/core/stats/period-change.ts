/**
 * A figure's change against the period of the same length just before, as a ratio: 0.25 is a
 * quarter more, -1 all gone. Null when the period before had none: no ratio of nothing, and a
 * page says so in words rather than print an infinite rise.
 */
export function periodChange(current: number, previous: number): number | null {
  if (previous <= 0) return null;
  return (current - previous) / previous;
}
