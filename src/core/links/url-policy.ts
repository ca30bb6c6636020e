import type { FieldFaults } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';

export const URL_MAX_LENGTH = 2048;

/** A scheme as settings and URLs spell it (`MyApp:`, `myapp`), in the one form it is compared in. */
export function schemeName(spelled: string): string {
  return spelled.toLowerCase().replace(/:$/, '');
}

/**
 * Which destinations a link may point to. Only absolute http(s) by default: other schemes
 * (javascript:, data:, file:) turn a trusted short link into an attack.
 */
export class UrlPolicy {
  private readonly schemes: ReadonlySet<string>;
  private readonly appSchemes: ReadonlySet<string>;

  /** appSchemes: the operator's APP_SCHEMES, custom schemes an app link may use besides https. */
  constructor(schemes: readonly string[] = ['http', 'https'], appSchemes: readonly string[] = []) {
    this.schemes = new Set(schemes.map(schemeName));
    this.appSchemes = new Set(appSchemes.map(schemeName));
  }

  /** Whether a destination may use the scheme today. */
  allowsScheme(scheme: string): boolean {
    return this.schemes.has(schemeName(scheme));
  }

  /** Whether an app link may use the scheme today: https, or one on APP_SCHEMES. */
  allowsAppScheme(scheme: string): boolean {
    const name = schemeName(scheme);
    return name === 'https' || this.appSchemes.has(name);
  }

  /**
   * An app link (ios_url, android_url): an https universal or app link, or a custom scheme on
   * the operator's allow-list. undefined = not sent, null/'' = clear.
   */
  checkApp(bag: FieldFaults, field: string, raw: unknown): string | null | undefined {
    if (raw === undefined) return undefined;
    if (raw === null || raw === '') return null;
    if (typeof raw !== 'string') {
      bag.add(field, messages.url(field));
      return undefined;
    }
    const value = raw.trim();
    if (value.length > URL_MAX_LENGTH) {
      bag.add(field, messages.maxChars(field, URL_MAX_LENGTH));
      return undefined;
    }
    if (!this.isAppUrl(value)) {
      bag.add(
        field,
        `The ${field} field must be an https URL${this.appSchemes.size > 0 ? ` or use one of the schemes ${[...this.appSchemes].join(', ')}` : ''}.`,
      );
      return undefined;
    }
    return value;
  }

  private isAppUrl(value: string): boolean {
    const url = parsedUrl(value);
    if (url === null) return false;
    const scheme = url.protocol.slice(0, -1);
    if (scheme === 'https') return url.hostname !== '' && /^https:\/\//i.test(value);
    // Something after the scheme: "myapp:" alone opens nothing.
    return this.appSchemes.has(scheme) && value.length > url.protocol.length;
  }

  /** Returns the URL when acceptable, else records why on the field. */
  check(bag: FieldFaults, field: string, raw: string): string | undefined {
    const value = raw.trim();
    if (value.length > URL_MAX_LENGTH) {
      bag.add(field, messages.maxChars(field, URL_MAX_LENGTH));
      return undefined;
    }
    if (!this.isAllowed(value)) {
      bag.add(field, this.refusal(field, value));
      return undefined;
    }
    return value;
  }

  /**
   * Why a value was refused: a URL of a scheme the operator did not allow names the schemes
   * that are, so "ftp://…" is not told it is no URL; anything else keeps phpShort's wording.
   */
  private refusal(field: string, value: string): string {
    const url = parsedUrl(value);
    if (url === null || this.schemes.has(url.protocol.slice(0, -1))) return messages.url(field);
    return messages.urlScheme(field, [...this.schemes]);
  }

  /** For clearable fields: undefined = not sent, null/'' = clear. */
  checkOptional(bag: FieldFaults, field: string, raw: string | null | undefined): string | null | undefined {
    if (raw === undefined) return undefined;
    if (raw === null || raw.trim() === '') return null;
    return this.check(bag, field, raw);
  }

  private isAllowed(value: string): boolean {
    const url = parsedUrl(value);
    if (url === null) return false;
    const scheme = url.protocol.slice(0, -1);
    if (!this.schemes.has(scheme)) return false;
    // Hierarchical web URLs need a host; "http:foo" would otherwise parse.
    return !(scheme === 'http' || scheme === 'https') || (url.hostname !== '' && /^https?:\/\//i.test(value));
  }
}

/** The URL a value spells, or null: no control characters or spaces anywhere, and it parses. */
function parsedUrl(value: string): URL | null {
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return null; // eslint-disable-line no-control-regex -- refusing controls is the point
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
