/** What a link's last destination check found (docs/design/health.md). */
export const HEALTH_STATUSES = ['ok', 'broken', 'unknown'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** Why a destination is broken: an answer's status, or how the request failed. */
export const HEALTH_REASONS = ['status', 'timeout', 'dns', 'connect', 'tls', 'redirects'] as const;
export type HealthReason = (typeof HEALTH_REASONS)[number];

export interface LinkHealth {
  status: HealthStatus;
  /** The last answer's HTTP status; null when no answer came (or never checked). */
  code: number | null;
  /** Set while broken. */
  reason: HealthReason | null;
  checkedAt: number | null;
  /** When the link's current run of broken checks began. */
  brokenSince: number | null;
}

/** A link never checked. */
export const UNKNOWN_HEALTH: LinkHealth = {
  status: 'unknown',
  code: null,
  reason: null,
  checkedAt: null,
  brokenSince: null,
};

/** What one request to a destination came to: an answer's status after redirects, or a failure. */
export type CheckAnswer = { code: number } | { reason: Exclude<HealthReason, 'status'> };

/** The webhook events of a change of health. */
export type HealthEvent = 'link.broken' | 'link.recovered';
