import type { UtmParam, UtmParams } from './utm-params.ts';

/** A named set of the five parameters an account applies to its links' destinations. */
export interface UtmTemplate {
  id: number;
  accountId: number;
  name: string;
  params: UtmParams;
  createdAt: number;
  updatedAt: number;
}

/** What a client sends: the name is required on create; a parameter not sent is kept on update. */
export type UtmTemplateInput = { name?: string | null | undefined } & Partial<
  Record<UtmParam, string | null | undefined>
>;
