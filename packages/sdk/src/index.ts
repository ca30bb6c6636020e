export { Linkpix, type LinkpixOptions } from './client.js';
export type { Links } from './links.js';
export type { Conversions } from './conversions.js';
export type { Domains } from './domains.js';
export type { RetryPolicy } from './retry.js';
export { LinkpixError, LinkpixRateLimitError, LinkpixValidationError } from './errors.js';
export type {
  Account,
  Conversion,
  ConversionResults,
  ConversionInput,
  Deleted,
  Domain,
  DomainPage,
  DomainQuery,
  Explanation,
  Link,
  LinkChanges,
  LinkInput,
  LinkPage,
  LinkQuery,
  LinkWarning,
  SavedLink,
  QrOptions,
  Stats,
  StatsTable,
  StatsQuery,
  Visitor,
} from './types.js';
export type { paths } from './openapi.js';
