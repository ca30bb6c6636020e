import type { CheckAnswer, HealthReason } from './health.ts';

export type Verdict = { broken: false; code: number } | { broken: true; code: number | null; reason: HealthReason };

/**
 * Whether an answer means the destination is broken. Gone (404, 410) and server errors (5xx) are;
 * so is any failure to get an answer. 401, 403 and 429 are not: pages behind a sign-in or a rate
 * limit answer so to a checker and work for the people who follow the link. Other 4xx answers
 * are taken as working too: the destination exists and answered.
 */
export function classify(answer: CheckAnswer): Verdict {
  if ('reason' in answer) return { broken: true, code: null, reason: answer.reason };
  const { code } = answer;
  if (code === 404 || code === 410 || (code >= 500 && code <= 599)) return { broken: true, code, reason: 'status' };
  return { broken: false, code };
}
