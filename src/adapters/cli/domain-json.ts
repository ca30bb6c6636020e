import { statusOf, type Domain } from '../../core/domains/domain.ts';

/** A domain as the operator reads it: whose, and whether it serves. */
export const domainJson = (d: Domain) => ({
  id: d.id,
  name: d.name,
  account_id: d.accountId,
  status: statusOf(d),
  verified_at: d.verifiedAt === null ? null : new Date(d.verifiedAt).toISOString(),
});
