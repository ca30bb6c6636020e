import { Parser } from 'htmlparser2';
import type { PageFacts } from '../../core/links/title-fetcher.ts';
import { cardOrNull, isCardImageUrl, SOCIAL_CARD_LIMITS, type SocialCard } from '../../core/links/social-card.ts';
import { URL_MAX_LENGTH } from '../../core/links/url-policy.ts';

const MAX_TITLE_LENGTH = 255;

// A <title> inside these is not the document's: an SVG or MathML element's own, a template's
// inert content, or what a browser reads as plain text (iframe, noembed, noframes, and noscript
// with scripting on), which htmlparser2 parses as markup.
const NOT_THE_DOCUMENT = new Set(['svg', 'math', 'template', 'iframe', 'noembed', 'noframes', 'noscript']);

/**
 * Finds the document's title as a browser does: the first <title> outside SVG, MathML, templates
 * and the elements whose content is plain text to a browser, in the head or not, its text raw (markup inside is text) with character references decoded; comments,
 * scripts and styles are not searched. Fed in pieces, it tells when the title has closed, so a
 * reader can stop there.
 */
export class TitleScanner {
  private readonly parser: Parser;
  private outside = 0;
  private inTitle = false;
  private text = '';
  private found: string | null = null;
  private head = true;
  /** The og: properties a link preview reads, first of each, as the page wrote them. */
  readonly og: { title?: string; description?: string; image?: string } = {};

  constructor() {
    this.parser = new Parser(
      {
        onopentag: (name, attributes) => {
          if (name === 'body') this.head = false;
          else if (name === 'meta' && this.outside === 0) this.readMeta(attributes);
          if (NOT_THE_DOCUMENT.has(name)) this.outside++;
          else if (name === 'title' && this.outside === 0 && this.found === null) this.inTitle = true;
        },
        ontext: (text) => {
          if (this.inTitle) this.text += text;
        },
        onclosetag: (name, isImplied) => {
          if (name === 'head') this.head = false;
          if (NOT_THE_DOCUMENT.has(name)) this.outside = Math.max(0, this.outside - 1);
          else if (name === 'title' && this.inTitle) {
            this.inTitle = false;
            // Closed only by the end of the input: the title may have been cut off.
            if (!isImplied) this.found = this.text;
          }
        },
      },
      { decodeEntities: true },
    );
  }

  /** Reads the next piece; true once the title is complete. */
  write(html: string): boolean {
    if (this.found === null) this.parser.write(html);
    return this.found !== null;
  }

  /** Reads the next piece, to the end of the head (where og: tags are); true once it has ended. */
  writeHead(html: string): boolean {
    if (this.head) this.parser.write(html);
    return !this.head;
  }

  private readMeta(attributes: Record<string, string>): void {
    const property = (attributes.property ?? attributes.name ?? '').toLowerCase();
    if (!property.startsWith('og:')) return;
    const key = property.slice(3);
    if ((key === 'title' || key === 'description' || key === 'image') && this.og[key] === undefined)
      this.og[key] = attributes.content ?? '';
  }

  /** The title's raw text once complete, else null. */
  get title(): string | null {
    return this.found;
  }
}

/**
 * Returns the text of the document's title, cleaned up for display, or null when there is none,
 * it is never closed, or it is blank.
 */
export function extractTitle(html: string): string | null {
  const scanner = new TitleScanner();
  scanner.write(html);
  return cleanText(scanner.title ?? undefined, MAX_TITLE_LENGTH);
}

/**
 * The title and og: tags of a page read to the end of its head (`scanner` fed with writeHead);
 * og:image resolved against the page's URL, and kept only when https (what a card may name).
 */
export function pageFactsOf(scanner: TitleScanner, pageUrl: string): PageFacts {
  const og = scanner.og;
  let image: string | null = null;
  const raw = cleanText(og.image, URL_MAX_LENGTH + 1); // one past: too long, then refused, never cut
  if (raw !== null) {
    try {
      const resolved = new URL(raw, pageUrl).href;
      if (isCardImageUrl(resolved)) image = resolved;
    } catch {
      image = null;
    }
  }
  const card: SocialCard = {
    title: cleanText(og.title, SOCIAL_CARD_LIMITS.titleMax),
    description: cleanText(og.description, SOCIAL_CARD_LIMITS.descriptionMax),
    image,
  };
  return { title: cleanText(scanner.title ?? undefined, MAX_TITLE_LENGTH), card: cardOrNull(card) };
}

/** A title's or meta tag's text for display, or null when blank. */
function cleanText(raw: string | undefined, max: number): string | null {
  if (raw === undefined) return null;
  // Control characters (C0, C1, DEL) would survive into storage and UIs invisibly.
  const text = raw
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return null;
  // Count code points, not UTF-16 units, so an emoji is never cut in half.
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('').trimEnd();
}
