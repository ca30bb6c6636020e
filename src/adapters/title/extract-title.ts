import { Parser } from 'htmlparser2';

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

  constructor() {
    this.parser = new Parser(
      {
        onopentag: (name) => {
          if (NOT_THE_DOCUMENT.has(name)) this.outside++;
          else if (name === 'title' && this.outside === 0 && this.found === null) this.inTitle = true;
        },
        ontext: (text) => {
          if (this.inTitle) this.text += text;
        },
        onclosetag: (name, isImplied) => {
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
  const raw = scanner.title;
  if (raw === null) return null;
  const text = raw
    // Control characters would survive into storage and UIs invisibly.
    .replace(/\p{Cc}/gu, ' ') // the C0 and C1 controls and DEL
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return null;
  // Count code points, not UTF-16 units, so an emoji is never cut in half.
  const chars = Array.from(text);
  return chars.length <= MAX_TITLE_LENGTH ? text : chars.slice(0, MAX_TITLE_LENGTH).join('').trimEnd();
}
