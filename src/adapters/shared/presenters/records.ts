import type { Account } from '../../../core/accounts/account.ts';
import { statusOf, type Domain } from '../../../core/domains/domain.ts';
import { verificationOf } from '../../../core/domains/verification.ts';
import type { Pixel } from '../../../core/pixels/pixel.ts';
import type { Space } from '../../../core/spaces/space.ts';

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export const accountRecord = (a: Account) => ({
  id: a.id,
  name: a.name,
  email: a.email,
  timezone: a.timezone,
  created_at: iso(a.createdAt),
});

export const spaceRecord = (s: Space) => ({
  id: s.id,
  name: s.name,
  color: s.color,
  created_at: iso(s.createdAt),
  updated_at: iso(s.updatedAt),
});

export const domainRecord = (d: Domain) => {
  const v = verificationOf(d);
  return {
    id: d.id,
    name: d.name,
    index_page: d.indexPage,
    not_found_page: d.notFoundPage,
    apple_app_site_association:
      d.appleAppSiteAssociation === null ? null : (JSON.parse(d.appleAppSiteAssociation) as unknown),
    assetlinks: d.assetLinks === null ? null : (JSON.parse(d.assetLinks) as unknown),
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
    status: statusOf(d),
    verified_at: isoOrNull(d.verifiedAt),
    verification: { token: v.token, txt_name: v.txtName, file_url: v.fileUrl },
  };
};

export const pixelRecord = (p: Pixel) => ({
  id: p.id,
  name: p.name,
  type: p.type,
  value: p.value,
  created_at: iso(p.createdAt),
  updated_at: iso(p.updatedAt),
});
