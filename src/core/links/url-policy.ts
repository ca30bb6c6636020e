import type { FieldFaults } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';

export const URL_MAX_LENGTH = 2048;

/**
 * Which destinations a link may point to. Only absolute http(s) by default: other schemes
 * (javascript:, data:, file:) turn a trusted short link into an attack.
 */
export class UrlPolicy {
  private readonly schemes: ReadonlySet<string>;

  constructor(schemes: readonly string[] = ['http', 'https']) {
    this.schemes = new Set(schemes.map((s) => s.toLowerCase().replace(/:$/, '')));
  }

  /** Returns the URL when acceptable, else records why on the field. */
  check(bag: FieldFaults, field: string, raw: string): string | undefined {
    const value = raw.trim();
    if (value.length > URL_MAX_LENGTH) {
      bag.add(field, messages.maxChars(field, URL_MAX_LENGTH));
      return undefined;
    }
    if (!this.isAllowed(value)) {
      bag.add(field, messages.url(field));
      return undefined;
    }
    return value;
  }

  /** For clearable fields: undefined = not sent, null/'' = clear. */
  checkOptional(bag: FieldFaults, field: string, raw: string | null | undefined): string | null | undefined {
    if (raw === undefined) return undefined;
    if (raw === null || raw.trim() === '') return null;
    return this.check(bag, field, raw);
  }

  private isAllowed(value: string): boolean {
    if (/[\s\u0000-\u001f\u007f]/.test(value)) return false; // eslint-disable-line no-control-regex -- refusing controls is the point
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    const scheme = url.protocol.slice(0, -1);
    if (!this.schemes.has(scheme)) return false;
    // Hierarchical web URLs need a host; "http:foo" would otherwise parse.
    return !(scheme === 'http' || scheme === 'https') || (url.hostname !== '' && /^https?:\/\//i.test(value));
  }
}
