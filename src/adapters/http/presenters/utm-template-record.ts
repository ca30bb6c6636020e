import type { UtmTemplate } from '../../../core/utm/utm-template.ts';
import { iso } from '../../shared/presenters/records.ts';

export const utmTemplateRecord = (t: UtmTemplate) => ({
  id: t.id,
  name: t.name,
  ...t.params,
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
});
