import type { Visitor } from '../redirect/visitor.ts';

/** What rules read of a visit besides the visitor the statistics record. */
export interface RuleFacts {
  visitor: Pick<Visitor, 'country' | 'platform' | 'browser' | 'device' | 'languages' | 'referrerHost'>;
  /** The visit's query string without "?", or ''. */
  query: string;
  /** The client address (TRUST_PROXY applied), or '' when unknown. */
  address: string;
  now: number;
  /** The link's click count as last read. */
  clicks: number;
  /** The value of the link's visitor cookie (rule-cookie.ts), undefined when it has none. */
  cookie: string | undefined;
}
